package io.github.limiter.outbound;

import io.github.limiter.Policy;
import io.github.limiter.internal.config.Setting;
import io.github.limiter.internal.config.SettingsSection;
import io.github.limiter.spi.ConfigLookup;
import java.util.Collection;
import java.util.List;

/**
 * The {@code limiter.outbound.NAME.*} section, this module's own: its settings ({@link
 * OutboundSettings}, docs/outbound.md) and its policies, which the application's one runtime holds
 * beside the inbound ones. Public only for {@link java.util.ServiceLoader}.
 */
public final class OutboundSection implements SettingsSection {

  @Override
  public String name() {
    return "outbound";
  }

  @Override
  public List<Setting<?>> settings() {
    return OutboundSettings.TABLE;
  }

  @Override
  public String prefix() {
    return OutboundConfig.PREFIX + "NAME.";
  }

  @Override
  public Collection<Policy> policies(ConfigLookup config) {
    return OutboundConfig.readAll(config).values().stream().map(OutboundConfig::policy).toList();
  }
}
