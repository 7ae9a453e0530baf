package dev.kensho.ssb.gen;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Output sink that digests a .tbl stream without storing it: md5, bytes, lines, first three and last line. */
final class TblDigest extends OutputStream {
    private final MessageDigest md5;
    private final List<String> first = new ArrayList<>();
    /** Bytes after the last newline seen so far (the start of the next line). */
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private String last = "";
    private long bytes;
    private long lines;

    TblDigest() {
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        md5.update(b, off, len);
        bytes += len;
        int lineStart = off;
        int lastStart = -1;
        int lastEnd = -1;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                if (first.size() < 3) {
                    first.add(text(b, off, lineStart, i));
                }
                lastStart = lineStart;
                lastEnd = i;
                lineStart = i + 1;
                lines++;
            }
        }
        if (lastEnd >= 0) {
            last = text(b, off, lastStart, lastEnd); // once per write call, not per line
            pending.reset();
        }
        pending.write(b, lineStart, off + len - lineStart);
    }

    /** Line [start, end) of this write; the first line of a write continues the pending bytes. */
    private String text(byte[] b, int off, int start, int end) {
        String head = start == off ? pending.toString(StandardCharsets.US_ASCII) : "";
        return head + new String(b, start, end - start, StandardCharsets.US_ASCII);
    }

    String md5() {
        return HexFormat.of().formatHex(md5.digest());
    }

    long bytes() {
        return bytes;
    }

    long lines() {
        return lines;
    }

    List<String> firstLines() {
        return first;
    }

    String lastLine() {
        return last;
    }

    /** True when the stream ended with a newline (no partial last line). */
    boolean complete() {
        return pending.size() == 0;
    }
}
