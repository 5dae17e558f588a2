package dev.zop.provisioner.core.internal.guardrails;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.navigation.CelNavigableExpr;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.zop.provisioner.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CEL for guardrails: the plan document's declared types, compiling an expression against them (type-checked, so a
 * misspelt field is refused when the guardrail is saved, with its line and column), a cost bound checked when it is
 * saved, and evaluation under a bound on loop iterations and on time.
 */
final class CelPrograms {
  /** What a comprehension is assumed to iterate over when a program's cost is estimated: the longest list allowed. */
  static final int LIST_BOUND = 100;
  /**
   * The most an expression may cost, in evaluated nodes at {@link #LIST_BOUND} items a list: a loop in a loop is in,
   * a loop in a loop in a loop is not.
   */
  static final long COST_BOUND = 1_000_000L;
  /** The longest an expression may be. */
  static final int MAX_LENGTH = 4_000;

  private static final StructType RESOURCE = struct("zop.Resource", Map.of(
      "type", SimpleType.STRING, "name", SimpleType.STRING, "field", SimpleType.STRING, "size", SimpleType.STRING,
      "version", SimpleType.STRING, "countMin", SimpleType.INT, "countMax", SimpleType.INT));
  private static final StructType COST = struct("zop.Cost", Map.of(
      "before", SimpleType.DOUBLE, "after", SimpleType.DOUBLE, "delta", SimpleType.DOUBLE,
      "deltaPercent", SimpleType.DOUBLE, "afterAtMax", SimpleType.DOUBLE, "spaceAtMax", SimpleType.DOUBLE,
      "complete", SimpleType.BOOL));
  private static final StructType CALLER = struct("zop.Caller", Map.of(
      "actor", SimpleType.STRING, "roles", ListType.create(SimpleType.STRING)));
  private static final StructType PLAN = struct("zop.Plan", Map.ofEntries(
      Map.entry("action", SimpleType.STRING), Map.entry("kind", SimpleType.STRING),
      Map.entry("provider", SimpleType.STRING), Map.entry("region", SimpleType.STRING),
      Map.entry("space", SimpleType.STRING), Map.entry("name", SimpleType.STRING),
      Map.entry("config", MapType.create(SimpleType.STRING, SimpleType.DYN)),
      Map.entry("tags", MapType.create(SimpleType.STRING, SimpleType.STRING)),
      Map.entry("resources", ListType.create(RESOURCE)), Map.entry("cost", COST), Map.entry("caller", CALLER),
      Map.entry("maxCount", SimpleType.INT)));

  private static final CelTypeProvider TYPES = new CelTypeProvider() {
    private final ImmutableSet<CelType> all = ImmutableSet.of(PLAN, RESOURCE, COST, CALLER);

    @Override
    public ImmutableCollection<CelType> types() {
      return all;
    }

    @Override
    public Optional<CelType> findType(String name) {
      return all.stream().filter(t -> t.name().equals(name)).findFirst();
    }
  };

  private static final CelCompiler RULES = compiler(SimpleType.BOOL);
  private static final CelCompiler MESSAGES = compiler(SimpleType.STRING);
  private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
      .setOptions(CelOptions.current().comprehensionMaxIterations(LIST_BOUND * LIST_BOUND).build())
      .build();

  private CelPrograms() {}

  /** A compiled rule and its message, ready to run on a plan's document. */
  record Compiled(CelRuntime.Program rule, CelRuntime.Program message) {}

  /** The expression as a rule ({@code bool}), or every reason it is not one, each naming {@code field}. */
  static Result compileRule(String expression, String field) {
    return compile(RULES, expression, field);
  }

  /** The expression as a message ({@code string}), or every reason it is not one. */
  static Result compileMessage(String expression, String field) {
    return compile(MESSAGES, expression, field);
  }

  /** A compiled program, or the errors that stopped it. */
  record Result(CelRuntime.Program program, List<FieldError> errors) {}

  private static Result compile(CelCompiler compiler, String expression, String field) {
    if (expression == null || expression.isBlank()) {
      return new Result(null, List.of(FieldError.required(field)));
    }
    if (expression.length() > MAX_LENGTH) {
      return new Result(null, List.of(FieldError.of(field, "too_long", field + " is longer than " + MAX_LENGTH
          + " characters")));
    }
    CelValidationResult checked = compiler.compile(expression);
    if (checked.hasError()) {
      List<FieldError> errors = new ArrayList<>();
      for (CelIssue issue : checked.getErrors()) {
        // CEL counts columns from 0; people and editors count them from 1
        errors.add(FieldError.of(field, "cel_invalid", "line " + issue.getSourceLocation().getLine() + ", column "
            + (issue.getSourceLocation().getColumn() + 1) + ": " + issue.getMessage()));
      }
      return new Result(null, errors);
    }
    try {
      CelAbstractSyntaxTree ast = checked.getAst();
      long cost = estimatedCost(ast);
      if (cost > COST_BOUND) {
        return new Result(null, List.of(FieldError.of(field, "cel_too_costly", "the expression may evaluate up to "
            + cost + " nodes on a plan with " + LIST_BOUND + "-item lists, more than the " + COST_BOUND
            + " allowed: nest fewer loops (all, exists, map, filter) inside each other")));
      }
      return new Result(RUNTIME.createProgram(ast), List.of());
    } catch (dev.cel.common.CelValidationException | CelEvaluationException e) {
      return new Result(null, List.of(FieldError.of(field, "cel_invalid", e.getMessage())));
    }
  }

  /**
   * The nodes an evaluation may visit: each node once, times {@link #LIST_BOUND} for every loop whose condition or
   * step it sits in.
   */
  static long estimatedCost(CelAbstractSyntaxTree ast) {
    return CelNavigableAst.fromAst(ast).getRoot().allNodes().mapToLong(CelPrograms::timesEvaluated)
        .reduce(0, CelPrograms::saturatingAdd);
  }

  private static long timesEvaluated(CelNavigableExpr node) {
    long times = 1;
    CelNavigableExpr child = node;
    for (Optional<CelNavigableExpr> up = node.parent(); up.isPresent(); up = up.get().parent()) {
      CelExpr parent = up.get().expr();
      if (parent.getKind() == CelExpr.ExprKind.Kind.COMPREHENSION) {
        CelExpr.CelComprehension loop = parent.comprehension();
        long id = child.id();
        if (id == loop.loopStep().id() || id == loop.loopCondition().id()) {
          times = saturatingMultiply(times, LIST_BOUND);
        }
      }
      child = up.get();
    }
    return times;
  }

  private static long saturatingAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  private static long saturatingMultiply(long a, long b) {
    return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }

  /** Thrown into an evaluation that ran past its time. */
  static final class TooSlow extends RuntimeException {
    TooSlow(long millis) {
      super("the expression ran longer than " + millis + " ms", null, false, false);
    }
  }

  /**
   * Runs {@code program} on {@code plan} (the document's {@link PlanDocument#asCelValue}), stopped after
   * {@code millis}: a listener called after every evaluated node checks the clock.
   */
  static Object run(CelRuntime.Program program, Map<String, Object> plan, long millis) throws CelEvaluationException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    return program.trace(Map.of("plan", plan), (expr, value) -> {
      if (System.nanoTime() > deadline) {
        throw new TooSlow(millis);
      }
    });
  }

  private static CelCompiler compiler(CelType result) {
    return CelCompilerFactory.standardCelCompilerBuilder()
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .setTypeProvider(TYPES)
        .addVar("plan", PLAN)
        .setResultType(result)
        .build();
  }

  private static StructType struct(String name, Map<String, CelType> fields) {
    return StructType.create(name, ImmutableSet.copyOf(fields.keySet()),
        field -> Optional.ofNullable(fields.get(field)));
  }
}
