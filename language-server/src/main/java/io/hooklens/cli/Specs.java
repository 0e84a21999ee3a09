package io.hooklens.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Picocli's model of the commands, built in code. Built from annotations, picocli reads them by reflection and
 * the JDK makes a proxy class for each annotation type, which took a third of a one-file lint's start.
 */
final class Specs {
  private Specs() {}

  /** A command that picocli runs by calling {@code command}, with the version every command's -V prints. */
  static CommandSpec command(String name, Object command) {
    return CommandSpec.wrapWithoutInspection(command).name(name)
        .versionProvider(() -> new String[] {"hooklens " + HooklensCommand.version()});
  }

  /** Adds -h and -V after the command's own options, as picocli's standard help options. */
  static CommandSpec withHelp(CommandSpec spec) {
    spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
        .description("Show this help message and exit.").build());
    spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
        .description("Print version information and exit.").build());
    return spec;
  }

  /** Exit codes as picocli's annotation takes them: the code, a colon, what it means. */
  static Map<String, String> exitCodes(String... codes) {
    Map<String, String> map = new LinkedHashMap<>();
    for (String code : codes) {
      int colon = code.indexOf(':');
      map.put(code.substring(0, colon), code.substring(colon + 1));
    }
    return map;
  }

  /** An option whose value goes to a field of the command, which holds its initial value. */
  static <T> OptionSpec.Builder option(Class<T> type, Supplier<T> get, Consumer<T> set, String... names) {
    Field<T> field = new Field<>(get, set);
    return OptionSpec.builder(names).type(type).getter(field).setter(field).initialValue(get.get());
  }

  /** A repeatable option whose values go to a list field of the command. */
  static <T> OptionSpec.Builder list(Class<T> item, Supplier<List<T>> get, Consumer<List<T>> set, String... names) {
    return option(listType(), get, set, names).auxiliaryTypes(item);
  }

  /** A repeatable option of KEY=VALUE pairs that go to a map field of the command. */
  static <V> OptionSpec.Builder map(Class<V> value, Supplier<Map<String, V>> get, Consumer<Map<String, V>> set,
      String... names) {
    return option(mapType(), get, set, names).auxiliaryTypes(String.class, value);
  }

  /** A required positional parameter whose value goes to a field of the command. */
  static <T> PositionalParamSpec.Builder positional(Class<T> type, Supplier<T> get, Consumer<T> set) {
    Field<T> field = new Field<>(get, set);
    return PositionalParamSpec.builder().type(type).arity("1").required(true).getter(field).setter(field)
        .initialValue(get.get());
  }

  /** Any number of positional parameters, which go to a list field of the command. */
  static <T> PositionalParamSpec.Builder positionals(Class<T> item, Supplier<List<T>> get, Consumer<List<T>> set) {
    return positional(listType(), get, set).arity("0..*").required(false).auxiliaryTypes(item);
  }

  @SuppressWarnings("unchecked")
  private static <T> Class<List<T>> listType() {
    return (Class<List<T>>) (Class<?>) List.class;
  }

  @SuppressWarnings("unchecked")
  private static <V> Class<Map<String, V>> mapType() {
    return (Class<Map<String, V>>) (Class<?>) Map.class;
  }

  /** A field of a command, as picocli reads and writes it. */
  private static final class Field<T> implements IGetter, ISetter {
    private final Supplier<T> get;
    private final Consumer<T> set;

    Field(Supplier<T> get, Consumer<T> set) {
      this.get = get;
      this.set = set;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> R get() {
      return (R) get.get();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> R set(R value) {
      R old = (R) get.get();
      set.accept((T) value);
      return old;
    }
  }
}
