package io.accel.plan;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.ConstantExpression;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.linq4j.tree.MethodCallExpression;
import org.apache.calcite.linq4j.tree.NewExpression;
import org.apache.calcite.linq4j.tree.Shuttle;
import org.apache.calcite.util.BuiltInMethod;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Moves what does not change between the rows of one execution out of generated per-row code and into the
 * execution's {@code bind}: the statement's parameters and context values ({@code root.get("?0")}, a hash
 * lookup each) and decimal literals ({@code new BigDecimal("1.00")}, a parse each). Calcite's translator
 * writes both inline where they are used, so a residual over 20,000 rows looked its parameters up 120,000
 * times.
 */
final class PerExecutionValues {
  private PerExecutionValues() {
  }

  /** The per-row block with those values read from final locals declared in {@code outer}. */
  static BlockStatement hoist(BlockStatement perRow, BlockBuilder outer) {
    Map<String, Expression> hoisted = new HashMap<>();
    Shuttle shuttle = new Shuttle() {
      @Override
      public Expression visit(MethodCallExpression call, @Nullable Expression target, List<Expression> arguments) {
        if (target == DataContext.ROOT && call.method.equals(BuiltInMethod.DATA_CONTEXT_GET.method)
            && arguments.size() == 1 && arguments.get(0) instanceof ConstantExpression name) {
          return hoisted.computeIfAbsent("get:" + name.value,
              k -> outer.append(outer.newName("accelValue"), Expressions.call(target, call.method, name), false));
        }
        return super.visit(call, target, arguments);
      }

      @Override
      public Expression visit(NewExpression created, List<Expression> arguments,
          @Nullable List<MemberDeclaration> members) {
        if (created.type == BigDecimal.class && members == null && arguments.size() == 1
            && arguments.get(0) instanceof ConstantExpression text && text.value instanceof String) {
          return hoisted.computeIfAbsent("decimal:" + text.value,
              k -> outer.append(outer.newName("accelDecimal"), Expressions.new_(BigDecimal.class, text), false));
        }
        return super.visit(created, arguments, members);
      }
    };
    return (BlockStatement) perRow.accept(shuttle);
  }
}
