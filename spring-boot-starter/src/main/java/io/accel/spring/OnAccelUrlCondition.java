package io.accel.spring;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when {@code spring.datasource.url} is a {@code jdbc:accel:} URL: the starter stays out of other apps. */
class OnAccelUrlCondition extends SpringBootCondition {
  static final String PREFIX = "jdbc:accel:";

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    String url = context.getEnvironment().getProperty("spring.datasource.url");
    if (url != null && url.startsWith(PREFIX)) {
      return ConditionOutcome.match("spring.datasource.url is a " + PREFIX + " URL");
    }
    return ConditionOutcome.noMatch("spring.datasource.url is not a " + PREFIX + " URL");
  }
}
