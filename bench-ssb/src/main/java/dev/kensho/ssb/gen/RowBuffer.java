package dev.kensho.ssb.gen;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Rows formatted straight into a reusable byte array: every field is followed by {@code '|'}; {@link #endRow()}
 * either keeps that last separator (TBL) or turns it into the newline (COPY). No Strings on the hot path.
 * With a sink the buffer is flushed when a row might not fit; without one it grows (one in-memory chunk).
 * The static {@code put*} methods format into any array at a position and return the new position, so the
 * lineorder loop can keep the position in a local variable.
 */
final class RowBuffer {
    /** Generous upper bound of one row's length (the longest SSB row is under 200 bytes). */
    static final int MAX_ROW = 256;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final boolean copy;
    private final OutputStream sink;
    private byte[] b;
    private int pos;

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
    }

    /** The backing array; valid until the next {@link #ensure}. */
    byte[] array() {
        return b;
    }

    int length() {
        return pos;
    }

    /** Moves the end after bytes written directly into {@link #array()} (room reserved by {@link #ensure}). */
    void length(int newLength) {
        pos = newLength;
    }

    boolean copyFormat() {
        return copy;
    }

    void endRow() {
        if (copy) {
            b[pos - 1] = '\n';
        } else {
            b[pos++] = '\n';
        }
    }

    void field(byte[] s) {
        pos = putField(b, pos, s);
    }

    void raw(byte[] s) {
        pos = putBytes(b, pos, s);
    }

    void rawByte(int c) {
        b[pos++] = (byte) c;
    }

    void sep() {
        b[pos++] = '|';
    }

    /** Decimal without padding, then the separator. */
    void field(long v) {
        int p = putLong(b, pos, v);
        b[p] = '|';
        pos = p + 1;
    }

    void field(int v) {
        int p = putInt(b, pos, v);
        b[p] = '|';
        pos = p + 1;
    }

    void putInt(int v) {
        pos = putInt(b, pos, v);
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
        pos = putLong(b, pos, v);
    }

    /** Copies {@code s} then {@code '|'}; a plain loop beats the arraycopy stub for the few bytes of SSB words. */
    static int putField(byte[] a, int p, byte[] s) {
        p = putBytes(a, p, s);
        a[p] = '|';
        return p + 1;
    }

    static int putBytes(byte[] a, int p, byte[] s) {
        int n = s.length;
        if (n <= 16) {
            for (int i = 0; i < n; i++) {
                a[p + i] = s[i];
            }
        } else {
            System.arraycopy(s, 0, a, p, n);
        }
        return p + n;
    }

    static int putLong(byte[] a, int p, long v) {
        if (v >= 0 && v <= Integer.MAX_VALUE) {
            return putInt(a, p, (int) v);
        }
        byte[] s = Distributions.ascii(Long.toString(v)); // beyond 2^31: keys above SF 357 only, not hot
        return putBytes(a, p, s);
    }

    /**
     * Decimal of v at a[p]. Below 10^8 (every SSB value up to SF 16) the digits are computed in one 64-bit word
     * (SWAR: 4-digit, 2-digit, then 1-digit lanes) and written with one 8-byte store: no serial chain of divisions.
     * May write up to 7 bytes past the returned position (callers keep a row's worth of slack).
     */
    static int putInt(byte[] a, int p, int v) {
        if (v < 0) {
            return putLong(a, p, v);
        }
        if (v < 100_000_000) {
            int len = digits(v);
            long hi = v / 10_000;
            long w = hi | ((v - hi * 10_000) << 32);              // two 4-digit lanes, most significant first
            long t = ((w * 10486) >>> 20) & 0x0000_007F_0000_007FL; // lane / 100
            w = t | ((w - 100 * t) << 16);                          // four 2-digit lanes
            t = ((w * 103) >>> 10) & 0x000F_000F_000F_000FL;         // lane / 10
            w = t | ((w - 10 * t) << 8);                            // eight digits, one per byte
            LONGS.set(a, p, (w + 0x3030_3030_3030_3030L) >>> ((8 - len) << 3));
            return p + len;
        }
        int end = p + digits(v);
        int q = end;
        while (v >= 10) {
            int d = v / 10;
            a[--q] = (byte) ('0' + (v - d * 10));
            v = d;
        }
        a[q - 1] = (byte) ('0' + v);
        return end;
    }

    /**
     * Number of decimal digits of v >= 0, branch-free: an estimate from the bit length, corrected by one comparison
     * (branches here were profiled on part's small values first and deoptimised when lineorder's large ones came).
     */
    static int digits(int v) {
        int approx = ((32 - Integer.numberOfLeadingZeros(v | 1)) * 1233) >>> 12; // floor(log10(2^bits))
        return approx + (int) ((POW10[approx] - 1 - (v | 1)) >>> 63); // v | 1: zero has one digit
    }

    /** 10^0 .. 10^10. */
    private static final long[] POW10 = {
        1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L,
        10_000_000_000L};
}
