package io.github.limiter.internal.config;

import java.util.List;

/** The reference documentation's table of settings, in Markdown, made from their declarations. */
final class ReferenceTable {

  private ReferenceTable() {}

  /**
   * The table of a policy's keys, {@code limiter.policy.NAME.*}, as docs/configuration.md has it.
   */
  static String policies() {
    return markdown(LimiterConfig.POLICY_PREFIX + "NAME.", PolicyKeys.TABLE);
  }

  /** The table of an outbound policy's keys, {@code limiter.outbound.NAME.*}: docs/outbound.md. */
  static String outbound() {
    return markdown(OutboundConfig.PREFIX + "NAME.", OutboundKeys.TABLE);
  }

  /** A table of {@code settings}, each key shown after {@code prefix}. */
  static String markdown(String prefix, List<Setting<?>> settings) {
    StringBuilder table = new StringBuilder();
    table.append("| setting | type | default | example | meaning |\n");
    table.append("|---|---|---|---|---|\n");
    for (Setting<?> setting : settings) {
      table
          .append("| `")
          .append(prefix)
          .append(setting.name())
          .append("` | ")
          .append(setting.type())
          .append(" | ")
          .append(setting.defaultText())
          .append(" | `")
          .append(setting.example())
          .append("` | ")
          .append(setting.meaning())
          .append(" |\n");
    }
    return table.toString();
  }
}
