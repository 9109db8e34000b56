package io.github.limiter.replay;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A plain-text table: the first column left-aligned, the others right-aligned. */
final class TextTable {

  private final List<String[]> rows = new ArrayList<>();

  TextTable(String... header) {
    rows.add(header);
  }

  void row(String... cells) {
    rows.add(cells);
  }

  void print(PrintStream out) {
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        String cell = row[c];
        String pad = " ".repeat(widths[c] - cell.length());
        line.append(c == 0 ? cell + pad : "  " + pad + cell);
      }
      out.println(line.toString().stripTrailing());
    }
  }

  /** A share as a percentage with two decimals, such as 3.26%. */
  static String percent(double share) {
    return String.format(Locale.ROOT, "%.2f%%", share * 100);
  }
}
