package io.hooklens.core.yaml;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a plain scalar means to the tool that applies the file: kubectl and Helm read YAML through
 * sigs.k8s.io/yaml over go-yaml v2 (YAML 1.1: {@code 030} is octal 24, {@code yes} a boolean), and a JSON
 * stream through a JSON decoder. Every type and value a rule sees comes from here.
 *
 * <p>go-yaml v2 strips underscores from anything that starts with a digit or a sign, then takes an integer
 * as Go's {@code strconv.ParseInt(s, 0, 64)} does ({@code 0x}, {@code 0o}, {@code 0b} and a leading
 * {@code 0} for octal, each with an optional sign), else an unsigned one, else a float of the form
 * {@code [-+]?(.d+|d+(.d*)?)([eE][-+]?d+)?}. So {@code 08} is the float 8, and {@code 1:30} (YAML 1.1's
 * base 60, which go-yaml never supported) and timestamps stay strings.
 */
public final class Scalars {
  private static final Pattern INT =
      Pattern.compile("[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)");
  private static final Pattern FLOAT = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  /** A float that starts with a dot is read by Go's ParseFloat with its underscores, which it then refuses. */
  private static final Pattern DOT_FLOAT = Pattern.compile("\\.[0-9]+([eE][-+]?[0-9]+)?");
  private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
  private static final Set<String> TRUE = Set.of("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
      "on", "On", "ON");
  private static final Set<String> FALSE = Set.of("n", "N", "no", "No", "NO", "false", "False", "FALSE",
      "off", "Off", "OFF");
  private static final Set<String> NULLS = Set.of("", "~", "null", "Null", "NULL");
  private static final Set<String> SPECIAL_FLOATS = Set.of(".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
      "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF");
  private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
  /** Go's JSON encoder writes a float64 below this without an exponent, so an integral one reads as an integer. */
  private static final double PLAIN_DECIMAL_LIMIT = 1e21;

  /** No integer spelling this short (sign and prefix included) is past int64, or uint64 when unsigned. */
  private static final int SURELY_FITS = 18;

  private Scalars() {}

  /** The type go-yaml v2 resolves a plain (unquoted, untagged) scalar to. */
  public static YScalar.Type type(String plain) {
    if (plain.isEmpty()) {
      return YScalar.Type.NULL;
    }
    char c = plain.charAt(0);
    boolean number = (c >= '0' && c <= '9') || c == '-' || c == '+';
    if (!number && c != '.' && !mayBeWord(c)) {
      // Most keys and values: nothing in the tables starts this way.
      return YScalar.Type.STRING;
    }
    if (NULLS.contains(plain)) {
      return YScalar.Type.NULL;
    }
    if (TRUE.contains(plain) || FALSE.contains(plain)) {
      return YScalar.Type.BOOL;
    }
    if (SPECIAL_FLOATS.contains(plain)) {
      return YScalar.Type.FLOAT;
    }
    if (c == '.') {
      return DOT_FLOAT.matcher(plain).matches() ? YScalar.Type.FLOAT : YScalar.Type.STRING;
    }
    if (!number) {
      return YScalar.Type.STRING;
    }
    String digits = plain.indexOf('_') >= 0 ? plain.replace("_", "") : plain;
    if (INT.matcher(digits).matches() && fits(digits)) {
      return YScalar.Type.INT;
    }
    return FLOAT.matcher(digits).matches() ? YScalar.Type.FLOAT : YScalar.Type.STRING;
  }

  private static boolean mayBeWord(char c) {
    return switch (c) {
      case '~', 'n', 'N', 't', 'T', 'f', 'F', 'y', 'Y', 'o', 'O' -> true;
      default -> false;
    };
  }

  /** Whether an integer spelling fits Go's int64, or its uint64 when unsigned. */
  private static boolean fits(String digits) {
    if (digits.length() <= SURELY_FITS) {
      return true;
    }
    BigInteger v = bigInteger(digits);
    boolean signed = digits.charAt(0) == '-' || digits.charAt(0) == '+';
    return v.bitLength() < 64 || (!signed && v.signum() > 0 && v.compareTo(UINT64_MAX) <= 0);
  }

  /** The value of an INT scalar as written (underscores allowed), by its radix prefix. */
  static BigInteger bigInteger(String written) {
    String d = written.replace("_", "");
    boolean negative = d.startsWith("-");
    if (negative || d.startsWith("+")) {
      d = d.substring(1);
    }
    int radix = 10;
    if (d.length() > 1 && d.charAt(0) == '0') {
      char p = Character.toLowerCase(d.charAt(1));
      radix = p == 'x' ? 16 : p == 'b' ? 2 : 8;
      d = p == 'x' || p == 'b' || p == 'o' ? d.substring(2) : d.substring(1);
    }
    BigInteger b = new BigInteger(d, radix);
    return negative ? b.negate() : b;
  }

  /** The value of a FLOAT scalar as written. */
  static double floating(String written) {
    String lower = written.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".inf")) {
      return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (lower.equals(".nan")) {
      return Double.NaN;
    }
    return Double.parseDouble(written.replace("_", ""));
  }

  /** The value of a BOOL scalar. */
  static boolean truth(String written) {
    return TRUE.contains(written);
  }

  /**
   * The integer the API server decodes from a number: an INT as it is, and a FLOAT with no fraction too, because
   * kubectl converts YAML to JSON with Go's encoder, which writes 30.0 as {@code 30}. Empty when it does not fit a
   * long or has a fraction.
   */
  static OptionalLong integral(YScalar.Type type, String written) {
    if (type == YScalar.Type.INT) {
      BigInteger b = bigInteger(written);
      return b.bitLength() < 64 ? OptionalLong.of(b.longValue()) : OptionalLong.empty();
    }
    if (type == YScalar.Type.FLOAT) {
      double d = floating(written);
      if (Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < PLAIN_DECIMAL_LIMIT) {
        BigInteger b = new BigDecimal(d).toBigIntegerExact();
        return b.bitLength() < 64 ? OptionalLong.of(b.longValue()) : OptionalLong.empty();
      }
    }
    return OptionalLong.empty();
  }

  /** Whether a FLOAT reaches the API as an integer (see {@link #integral}), whatever its size. */
  static boolean integralFloat(String written) {
    double d = floating(written);
    return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < PLAIN_DECIMAL_LIMIT;
  }

  /** Whether a plain scalar is a JSON literal: a number as JSON writes it, true, false or null. */
  public static boolean isJsonLiteral(String plain) {
    return plain.equals("true") || plain.equals("false") || plain.equals("null")
        || JSON_NUMBER.matcher(plain).matches();
  }
}
