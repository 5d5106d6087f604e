package io.accel.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Accel's core registers its meters ({@code accel.*}) in Micrometer's global registry; this adds the application's
 * MeterRegistry (the one Actuator exports) to it, so meters registered before and after reach the application, and
 * removes it again when the context closes (unless it was there already, for instance added by Boot itself).
 */
public class AccelMeterRegistryBinding implements SmartInitializingSingleton, DisposableBean {
  private final ObjectProvider<MeterRegistry> registries;
  private MeterRegistry added;

  public AccelMeterRegistryBinding(ObjectProvider<MeterRegistry> registries) {
    this.registries = registries;
  }

  @Override
  public void afterSingletonsInstantiated() {
    MeterRegistry registry = registries.getIfUnique();
    if (registry != null && registry != Metrics.globalRegistry
        && !Metrics.globalRegistry.getRegistries().contains(registry)) {
      Metrics.addRegistry(registry);
      added = registry;
    }
  }

  @Override
  public void destroy() {
    if (added != null) {
      Metrics.removeRegistry(added);
      added = null;
    }
  }
}
