package dev.kensho.ssb.gen;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Star Schema Benchmark data, byte-identical to ssb-dbgen (eyalroz/ssb-dbgen @ ae1e254) run as
 * {@code TZ=UTC dbgen -s sf}: all five tables generated in one process, which matters because dbgen's random streams
 * are shared between tables (customer continues supplier's city and phone streams; every date row advances the order
 * streams once).
 *
 * <p>Every row range is generated independently: the streams are positioned by exact jump-ahead
 * ({@code seed * 16807^n mod (2^31-1)}), so ranges may be produced on different threads and concatenated in unit
 * order. Instances are immutable and thread-safe.
 */
public final class SsbGenerator {
    /** Output buffer of {@link #write}; large writes keep the stream (COPY, file, digest) cheap per byte. */
    private static final int STREAM_BUFFER = 1 << 20;
    /** Rough output bytes per unit (lineorder: per order), so that small ranges get small buffers. */
    private static final long[] BYTES_PER_UNIT = {90, 90, 100, 110, 420};

    private final Scale scale;
    private final boolean oneProcess;
    private final Map<SsbTable, TableRows> tables = new EnumMap<>(SsbTable.class);
    private volatile long lineorderRows = -1;

    /**
     * @param scaleFactor as dbgen's {@code -s}: at 1 and above the integer part counts (1.5 behaves as 1); below 1
     *        every table shrinks by the fraction (date included, 255 rows at 0.1). Refused with an
     *        {@link IllegalArgumentException}: NaN, infinities, values &lt;= 0 (dbgen would quietly write one row per
     *        table) and values above dbgen's MAX_SCALE 100000.
     */
    public SsbGenerator(double scaleFactor) {
        this(scaleFactor, true);
    }

    private SsbGenerator(double scaleFactor, boolean oneProcess) {
        this.scale = new Scale(scaleFactor);
        this.oneProcess = oneProcess;
        tables.put(SsbTable.PART, new PartRows());
        tables.put(SsbTable.SUPPLIER, CompanyRows.supplier());
        tables.put(SsbTable.CUSTOMER, CompanyRows.customer(oneProcess ? scale.suppliers : 0));
        tables.put(SsbTable.DATE, new DateRows());
        tables.put(SsbTable.LINEORDER, new LineorderRows(scale, oneProcess ? scale.dates : 0));
    }

    /**
     * The rows dbgen writes when run once per table ({@code dbgen -s sf -T p}, {@code -T s}, ... as some published
     * SSB recipes do): customer and lineorder then differ from the one-process default because no table continues
     * another's random streams (part, supplier and date are the same). For comparisons with such data sets only.
     */
    public static SsbGenerator perTableRuns(double scaleFactor) {
        return new SsbGenerator(scaleFactor, false);
    }

    /** False for {@link #perTableRuns}. */
    public boolean oneProcess() {
        return oneProcess;
    }

    public double scaleFactor() {
        return scale.sf;
    }

    /** Generation units: rows, except LINEORDER where a unit is an order of 1 to 7 lines. */
    public long units(SsbTable t) {
        switch (Objects.requireNonNull(t, "table")) {
            case PART: return scale.parts;
            case SUPPLIER: return scale.suppliers;
            case CUSTOMER: return scale.customers;
            case DATE: return scale.dates;
            case LINEORDER: return scale.orders;
            default: throw new AssertionError(t);
        }
    }

    /**
     * Exact row count. For LINEORDER the first call walks the line-count stream once (one draw per order: a few
     * milliseconds per scale factor unit, about 5 ms at SF 1) and caches the result.
     */
    public long rowCount(SsbTable t) {
        if (t != SsbTable.LINEORDER) {
            return units(t);
        }
        long n = lineorderRows;
        if (n < 0) {
            n = lineorder().lines(0, scale.orders);
            lineorderRows = n;
        }
        return n;
    }

    /** Rows (lineorder: lines) of units [fromUnit, toUnit); cheap for every table (see {@link #rowCount}). */
    public long rowCount(SsbTable t, long fromUnit, long toUnit) {
        checkRange(t, fromUnit, toUnit);
        return t == SsbTable.LINEORDER ? lineorder().lines(fromUnit, toUnit) : toUnit - fromUnit;
    }

    /**
     * Writes rows of units [fromUnit, toUnit) (0-based) in the given format. Seeks the random streams by exact
     * jump-ahead (16807^n mod 2^31-1), so chunks may be generated on different threads and concatenated in unit order
     * to get dbgen's file. Buffers internally (writes of up to 1 MiB, a buffer sized to the range); does not close
     * or flush {@code out}. Thread-safe: concurrent calls share nothing but this immutable generator.
     */
    public void write(SsbTable t, long fromUnit, long toUnit, RowFormat f, OutputStream out) throws IOException {
        checkRange(t, fromUnit, toUnit);
        Objects.requireNonNull(f, "format");
        Objects.requireNonNull(out, "out");
        long estimate = (toUnit - fromUnit) * BYTES_PER_UNIT[t.ordinal()] + 8 * RowBuffer.MAX_ROW;
        RowBuffer buffer = new RowBuffer(f, out, (int) Math.min(STREAM_BUFFER, estimate));
        tables.get(t).write(fromUnit, toUnit, buffer);
        buffer.flush();
    }

    /**
     * Writes all five {@code .tbl} files into {@code dir} (created if missing; existing files are replaced) using
     * {@code threads} generator threads plus the calling thread as writer; byte-identical to {@code dbgen -s sf}.
     */
    public void writeFiles(Path dir, int threads) throws IOException {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        new ChunkPipeline(this, threads).writeFiles(Objects.requireNonNull(dir, "dir"));
    }

    /** Appends units [from, to) of {@code t} to an in-memory buffer (the pipeline's chunks). */
    void generate(SsbTable t, long from, long to, RowBuffer buffer) throws IOException {
        tables.get(t).write(from, to, buffer);
    }

    private LineorderRows lineorder() {
        return (LineorderRows) tables.get(SsbTable.LINEORDER);
    }

    private void checkRange(SsbTable t, long from, long to) {
        long n = units(t);
        if (from < 0 || to < from || to > n) {
            throw new IllegalArgumentException(
                t.tableName() + ": unit range [" + from + ", " + to + ") outside [0, " + n + ")");
        }
    }
}
