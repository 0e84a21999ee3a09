/*
 * Compile-only: the signatures of LSP4IJ's ProcessStreamConnectionProvider as published in
 * redhat-developer/lsp4ij, src/main/java/com/redhat/devtools/lsp4ij/server/ProcessStreamConnectionProvider.java,
 * checked at commit d21cff925d36a476e1099420ccd9e8cd3e50fa18. Never packaged: in the IDE the class is LSP4IJ's
 * own. The constructors and accessors keep what they are given, so that tests can read what the plugin passes;
 * starting and stopping the process is LSP4IJ's work, so those methods here only throw.
 */
package com.redhat.devtools.lsp4ij.server;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Collections;
import java.util.List;
import java.util.Map;

public abstract class ProcessStreamConnectionProvider implements StreamConnectionProvider, ProcessDataProvider {
  private List<String> commands;
  private String workingDir;
  private Map<String, String> userEnvironmentVariables;
  private boolean includeSystemEnvironmentVariables;

  public ProcessStreamConnectionProvider() {
    this(null);
  }

  public ProcessStreamConnectionProvider(List<String> commands) {
    this(commands, null);
  }

  public ProcessStreamConnectionProvider(List<String> commands, String workingDir) {
    this(commands, workingDir, null);
  }

  public ProcessStreamConnectionProvider(List<String> commands, String workingDir, Map<String, String> environment) {
    this.commands = commands;
    this.workingDir = workingDir;
    this.userEnvironmentVariables = environment;
    this.includeSystemEnvironmentVariables = true;
  }

  @Override
  public void start() throws CannotStartProcessException {
    throw new UnsupportedOperationException("compile-only: LSP4IJ starts the process in the IDE");
  }

  protected ProcessBuilder createProcessBuilder() {
    throw new UnsupportedOperationException("compile-only: LSP4IJ builds the process in the IDE");
  }

  @Override
  public InputStream getInputStream() {
    throw new UnsupportedOperationException("compile-only: LSP4IJ owns the process in the IDE");
  }

  @Override
  public OutputStream getOutputStream() {
    throw new UnsupportedOperationException("compile-only: LSP4IJ owns the process in the IDE");
  }

  @Override
  public Long getPid() {
    return null;
  }

  @Override
  public void stop() {
    throw new UnsupportedOperationException("compile-only: LSP4IJ stops the process in the IDE");
  }

  @Override
  public List<String> getCommands() {
    return commands;
  }

  public void setCommands(List<String> commands) {
    this.commands = commands;
  }

  public String getWorkingDirectory() {
    return workingDir;
  }

  public void setWorkingDirectory(String workingDir) {
    this.workingDir = workingDir;
  }

  public Map<String, String> getUserEnvironmentVariables() {
    return userEnvironmentVariables != null ? userEnvironmentVariables : Collections.emptyMap();
  }

  public void setUserEnvironmentVariables(Map<String, String> userEnvironmentVariables) {
    this.userEnvironmentVariables = userEnvironmentVariables;
  }

  public boolean isIncludeSystemEnvironmentVariables() {
    return includeSystemEnvironmentVariables;
  }

  public void setIncludeSystemEnvironmentVariables(boolean includeSystemEnvironmentVariables) {
    this.includeSystemEnvironmentVariables = includeSystemEnvironmentVariables;
  }
}
