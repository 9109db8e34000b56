package io.github.limiter.cdi;

import jakarta.enterprise.inject.build.compatible.spi.BeanInfo;
import jakarta.enterprise.inject.build.compatible.spi.Discovery;
import jakarta.enterprise.inject.build.compatible.spi.Messages;
import jakarta.enterprise.inject.build.compatible.spi.Registration;
import jakarta.enterprise.inject.build.compatible.spi.ScannedClasses;
import jakarta.enterprise.inject.build.compatible.spi.Synthesis;
import jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents;
import jakarta.enterprise.inject.build.compatible.spi.Validation;

/**
 * {@link LimitedBuildExtension} as a CDI Lite container runs it, on Weld: Weld skips a Build
 * Compatible Extension marked {@code @SkipIfPortableExtensionPresent}, and finds its phases among
 * the class's own methods, so this one redeclares them, unmarked.
 */
public class UnskippedBuildExtension extends LimitedBuildExtension {

  @Override
  @Discovery
  public void discover(ScannedClasses scanned) {
    super.discover(scanned);
  }

  @Override
  @Registration(types = Object.class)
  public void collect(BeanInfo bean) {
    super.collect(bean);
  }

  @Override
  @Synthesis
  public void synthesize(SyntheticComponents components) {
    super.synthesize(components);
  }

  @Override
  @Validation
  public void validate(Messages messages) {
    super.validate(messages);
  }
}
