package io.hooklens.intellij;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.jetbrains.plugin.structure.base.plugin.PluginCreationResult;
import com.jetbrains.plugin.structure.base.plugin.PluginCreationSuccess;
import com.jetbrains.plugin.structure.intellij.plugin.IdePlugin;
import com.jetbrains.plugin.structure.intellij.plugin.IdePluginManager;
import com.jetbrains.plugin.structure.intellij.plugin.PluginDependency;
import org.junit.jupiter.api.Test;

/** JetBrains' own descriptor validator (structure-intellij), as the Marketplace runs it on an upload. */
class PluginDescriptorIT {

  @Test
  void theZipPassesTheMarketplacesDescriptorChecksWithoutAWarning() {
    PluginCreationResult<IdePlugin> result = IdePluginManager.createManager().createPlugin(PackagedPlugin.zip());
    PluginCreationSuccess<IdePlugin> success = assertInstanceOf(PluginCreationSuccess.class, result, result::toString);
    assertEquals("[]", success.getWarnings().toString());
    assertEquals("[]", success.getUnacceptableWarnings().toString());

    IdePlugin plugin = success.getPlugin();
    assertEquals("io.hooklens", plugin.getPluginId());
    // LSP4IJ's own minimum (pluginSinceBuild=242 in its gradle.properties).
    assertEquals(242, plugin.getSinceBuild().getBaselineVersion());
    assertTrue(plugin.getDependencies().stream().map(PluginDependency::getId)
        .anyMatch("com.redhat.devtools.lsp4ij"::equals), plugin.getDependencies().toString());
    assertEquals(1, plugin.getExtensions().get("com.redhat.devtools.lsp4ij.server").size(),
        plugin.getExtensions().keySet().toString());
  }
}
