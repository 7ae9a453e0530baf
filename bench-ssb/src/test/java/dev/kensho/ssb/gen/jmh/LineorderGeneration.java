package dev.kensho.ssb.gen.jmh;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

import dev.kensho.ssb.gen.RowFormat;
import dev.kensho.ssb.gen.SsbGenerator;
import dev.kensho.ssb.gen.SsbTable;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Generation throughput per core: lineorder rows/s formatted into bytes (no I/O), through the public
 * {@link SsbGenerator#write} API the loader uses. The {@code rows} counter is the figure of merit (rows/s per thread);
 * the primary score counts calls of {@code ordersPerCall} orders. dbgen's reference pace on this machine is
 * ≈ 6.0 M lineorder rows in ≈ 10.6 s for all of SF 1, i.e. well under 0.6 M rows/s.
 *
 * <p>Run (from the repository root; not part of {@code mvn test}):
 * <pre>
 * ./mvnw -B -q -o -pl bench-ssb test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/test-cp.txt -Dmdep.includeScope=test
 * java -cp bench-ssb/target/test-classes:bench-ssb/target/classes:$(cat bench-ssb/target/test-cp.txt) \
 *     org.openjdk.jmh.Main dev.kensho.ssb.gen.jmh -t 1      # -t 2 for two threads; -prof gc for allocation
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class LineorderGeneration {
    /** Scale factor of the generator (only the key ranges change with it, not the work per row). */
    @Param({"1"})
    public double scaleFactor;

    /** Orders per {@code write} call, i.e. per chunk the loader would hand to one COPY stream. */
    @Param({"10000"})
    public int ordersPerCall;

    private SsbGenerator generator;
    private long from;
    private long to;
    private long lines;

    /** Lines generated, reported by JMH as rows/s. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Rows {
        public long rows;
    }

    @Setup
    public void setup() {
        generator = new SsbGenerator(scaleFactor);
        from = generator.units(SsbTable.LINEORDER) / 2; // mid-table: includes the jump-ahead cost of a real chunk
        to = from + ordersPerCall;
        lines = generator.rowCount(SsbTable.LINEORDER, from, to);
    }

    @Benchmark
    public void tbl(Rows rows, Blackhole bh) throws IOException {
        generator.write(SsbTable.LINEORDER, from, to, RowFormat.TBL, sink(bh));
        rows.rows += lines;
    }

    @Benchmark
    public void copy(Rows rows, Blackhole bh) throws IOException {
        generator.write(SsbTable.LINEORDER, from, to, RowFormat.COPY, sink(bh));
        rows.rows += lines;
    }

    /** Consumes the bytes so that formatting cannot be optimised away. */
    private static OutputStream sink(Blackhole bh) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                bh.consume(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                bh.consume(b[off + len - 1]);
                bh.consume(len);
            }
        };
    }
}
