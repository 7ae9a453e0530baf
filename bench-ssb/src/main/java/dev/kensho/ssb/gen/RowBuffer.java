package dev.kensho.ssb.gen;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Rows formatted straight into a reusable byte array: every field is followed by {@code '|'}; {@link #endRow()}
 * either keeps that last separator (TBL) or turns it into the newline (COPY). No Strings on the hot path.
 * With a sink the buffer is flushed when a row might not fit; without one it grows (one in-memory chunk).
 */
final class RowBuffer {
    /** Generous upper bound of one row's length (the longest SSB row is under 200 bytes). */
    static final int MAX_ROW = 256;

    private final boolean copy;
    private final OutputStream sink;
    private byte[] b;
    private int pos;
    private long rows;

    RowBuffer(RowFormat format, OutputStream sink, int capacity) {
        this.copy = format == RowFormat.COPY;
        this.sink = sink;
        this.b = new byte[Math.max(capacity, 8 * MAX_ROW)];
    }

    /** Makes room for {@code n} bytes: flushes to the sink, or grows when there is none. */
    void ensure(int n) throws IOException {
        if (pos + n <= b.length) {
            return;
        }
        if (sink != null) {
            flush();
            if (n > b.length) {
                b = new byte[n];
            }
        } else {
            b = Arrays.copyOf(b, Math.max(b.length * 2, pos + n));
        }
    }

    void flush() throws IOException {
        if (pos > 0 && sink != null) {
            sink.write(b, 0, pos);
            pos = 0;
        }
    }

    /** Empties an in-memory buffer for reuse (the chunk pipeline). */
    void reset() {
        pos = 0;
        rows = 0;
    }

    byte[] array() {
        return b;
    }

    int length() {
        return pos;
    }

    long rows() {
        return rows;
    }

    void endRow() {
        if (copy) {
            b[pos - 1] = '\n';
        } else {
            b[pos++] = '\n';
        }
        rows++;
    }

    void field(byte[] s) {
        int n = s.length;
        System.arraycopy(s, 0, b, pos, n);
        pos += n;
        b[pos++] = '|';
    }

    void raw(byte[] s) {
        System.arraycopy(s, 0, b, pos, s.length);
        pos += s.length;
    }

    void rawByte(int c) {
        b[pos++] = (byte) c;
    }

    void sep() {
        b[pos++] = '|';
    }

    /** Decimal without padding, then the separator. */
    void field(long v) {
        putLong(v);
        b[pos++] = '|';
    }

    void field(int v) {
        putInt(v);
        b[pos++] = '|';
    }

    void putLong(long v) {
        if (v >= 0 && v <= Integer.MAX_VALUE) {
            putInt((int) v);
            return;
        }
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                raw(Distributions.ascii(Long.toString(v)));
                return;
            }
            b[pos++] = '-';
            v = -v;
        }
        int len = 1;
        for (long t = v; t >= 10; t /= 10) {
            len++;
        }
        int p = pos + len;
        while (v >= 10) {
            long q = v / 10;
            b[--p] = (byte) ('0' + (v - q * 10));
            v = q;
        }
        b[--p] = (byte) ('0' + v);
        pos += len;
    }

    void putInt(int v) {
        if (v < 0) {
            putLong(v);
            return;
        }
        int len = digits(v);
        int p = pos + len;
        while (v >= 10) {
            int q = v / 10;
            b[--p] = (byte) ('0' + (v - q * 10));
            v = q;
        }
        b[--p] = (byte) ('0' + v);
        pos += len;
    }

    /** Non-negative value zero-padded to {@code width} digits (wider values print in full, as printf does). */
    void putPadded(long v, int width) {
        int len = 1;
        for (long t = v; t >= 10; t /= 10) {
            len++;
        }
        for (int i = len; i < width; i++) {
            b[pos++] = '0';
        }
        putLong(v);
    }

    private static int digits(int v) {
        if (v < 10) return 1;
        if (v < 100) return 2;
        if (v < 1000) return 3;
        if (v < 10000) return 4;
        if (v < 100000) return 5;
        if (v < 1000000) return 6;
        if (v < 10000000) return 7;
        if (v < 100000000) return 8;
        if (v < 1000000000) return 9;
        return 10;
    }
}
