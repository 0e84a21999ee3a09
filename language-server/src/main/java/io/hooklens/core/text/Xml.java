package io.hooklens.core.text;

/** XML escaping, for the JUnit and Checkstyle reports and the SVG timeline. */
public final class Xml {
  private Xml() {}

  public static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&apos;");
        default -> {
          // XML 1.0 cannot carry most control characters, even escaped.
          if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
            sb.append(c);
          }
        }
      }
    }
    return sb.toString();
  }
}
