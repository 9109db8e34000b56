package io.github.limiter.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports the benchmark JVM's CPU time per operation ({@code cpu.ns/op}), next to JMH's wall-clock
 * score. On a machine shared with other work, wall-clock throughput drops whenever the scheduler
 * gives the cores to someone else; CPU time per call barely moves, so ratios of it are the steadier
 * comparison. It counts every thread of the JVM, so a peer's GC and allocation costs are included.
 *
 * <p>Use: {@code -prof io.github.limiter.bench.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {

  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private long cpuBefore;

  @Override
  public String getDescription() {
    return "CPU time of the whole JVM per operation, immune to time-slicing by other processes";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    cpuBefore = os.getProcessCpuTime();
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's own signature uses the raw Result
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long cpu = os.getProcessCpuTime() - cpuBefore;
    // All operations, not only the measured ones: the CPU time covers the whole iteration.
    long ops = result.getMetadata().getAllOps();
    double perOp = ops > 0 ? (double) cpu / ops : Double.NaN;
    return List.of(new ScalarResult("cpu.ns/op", perOp, "ns/op", AggregationPolicy.AVG));
  }
}
