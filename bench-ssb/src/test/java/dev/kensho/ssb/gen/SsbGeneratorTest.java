package dev.kensho.ssb.gen;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Byte identity with ssb-dbgen at SF 0.1 (all five tables), jump-ahead chunking, COPY format, scale validation. */
class SsbGeneratorTest {
    private static final SsbGenerator SF01 = new SsbGenerator(0.1);

    @ParameterizedTest
    @EnumSource(SsbTable.class)
    void sf01MatchesDbgen(SsbTable t) throws IOException {
        TblDigest d = new TblDigest();
        SF01.write(t, 0, SF01.units(t), RowFormat.TBL, d);
        assertMatches(Reference.SF01.get(t), d, t);
        assertEquals(d.lines(), SF01.rowCount(t), "rowCount(" + t + ")");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 7})
    void chunksConcatenateToOnePass(int k) throws IOException {
        for (SsbTable t : new SsbTable[] {SsbTable.CUSTOMER, SsbTable.LINEORDER, SsbTable.PART}) {
            long n = SF01.units(t);
            TblDigest d = new TblDigest();
            long rows = 0;
            long from = 0;
            for (int i = 1; i <= k; i++) {
                // Uneven boundaries (not multiples of 8 or 7), so sparse keys and line top-ups are crossed mid-block.
                long to = i == k ? n : Math.min(n, from + n / k + 13 * i - 5);
                SF01.write(t, from, to, RowFormat.TBL, d);
                rows += SF01.rowCount(t, from, to);
                from = to;
            }
            assertMatches(Reference.SF01.get(t), d, t);
            assertEquals(d.lines(), rows, "sum of chunk row counts for " + t);
        }
    }

    @Test
    void singleUnitRangesSeekExactly() throws IOException {
        // Order 150000 alone (the last at SF 0.1) and part 20000 alone must equal the reference's last lines.
        TblDigest lo = new TblDigest();
        SF01.write(SsbTable.LINEORDER, SF01.units(SsbTable.LINEORDER) - 1, SF01.units(SsbTable.LINEORDER), RowFormat.TBL, lo);
        assertEquals(Reference.SF01.get(SsbTable.LINEORDER).lastLine(), lo.lastLine());
        TblDigest p = new TblDigest();
        SF01.write(SsbTable.PART, 19999, 20000, RowFormat.TBL, p);
        assertEquals(1, p.lines());
        assertEquals(Reference.SF01.get(SsbTable.PART).lastLine(), p.lastLine());
        TblDigest empty = new TblDigest();
        SF01.write(SsbTable.LINEORDER, 5, 5, RowFormat.TBL, empty);
        assertEquals(0, empty.bytes());
    }

    @ParameterizedTest
    @EnumSource(SsbTable.class)
    void copyIsTblWithoutTrailingSeparator(SsbTable t) throws IOException {
        long n = Math.min(SF01.units(t), 5000);
        ByteArrayOutputStream tbl = new ByteArrayOutputStream();
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        SF01.write(t, 0, n, RowFormat.TBL, tbl);
        SF01.write(t, 0, n, RowFormat.COPY, copy);
        String expected = tbl.toString(java.nio.charset.StandardCharsets.US_ASCII).replace("|\n", "\n");
        assertTrue(expected.length() < tbl.size(), "TBL rows end in '|'");
        assertArrayEquals(expected.getBytes(java.nio.charset.StandardCharsets.US_ASCII), copy.toByteArray());
    }

    @Test
    void writeFilesInParallelMatchesDbgen(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("lineorder.tbl"), "x".repeat(100_000_000 / 1000)); // replaced, not overlaid
        SF01.writeFiles(dir, 3);
        for (SsbTable t : SsbTable.values()) {
            TblDigest d = new TblDigest();
            try (InputStream in = Files.newInputStream(dir.resolve(t.fileName()))) {
                in.transferTo(d);
            }
            assertMatches(Reference.SF01.get(t), d, t);
        }
    }

    @Test
    void perTableRunsMatchDbgenRunOncePerTable() throws IOException {
        // Mode B of tables-sf01.txt (dbgen -s 0.1 -T p|s|c|d|l): customer and lineorder differ, the rest is shared.
        SsbGenerator b = SsbGenerator.perTableRuns(0.1);
        TblDigest c = new TblDigest();
        b.write(SsbTable.CUSTOMER, 0, b.units(SsbTable.CUSTOMER), RowFormat.TBL, c);
        assertEquals("1c8f3c38552827d7a12488b4cd36a934", c.md5());
        assertEquals("1|Customer#000000001|j5JsirBM9P|MOROCCO  9|MOROCCO|AFRICA|25-989-741-2988|BUILDING|", c.firstLines().get(0));
        TblDigest l = new TblDigest();
        b.write(SsbTable.LINEORDER, 0, b.units(SsbTable.LINEORDER), RowFormat.TBL, l);
        assertEquals(600572, l.lines());
        assertEquals(57478587, l.bytes());
        assertEquals("68dbedae8afd7d62c5f48a88eb5ba617", l.md5());
        assertEquals(600572, b.rowCount(SsbTable.LINEORDER));
        TblDigest p = new TblDigest();
        b.write(SsbTable.PART, 0, b.units(SsbTable.PART), RowFormat.TBL, p);
        assertEquals(Reference.SF01.get(SsbTable.PART).md5(), p.md5());
        assertTrue(SF01.oneProcess() && !b.oneProcess());
    }

    @Test
    void rowCountsFollowDbgenScaling() {
        SsbGenerator sf1 = new SsbGenerator(1);
        assertEquals(6_001_173, sf1.rowCount(SsbTable.LINEORDER));
        assertEquals(1_500_000, sf1.units(SsbTable.LINEORDER));
        assertEquals(2557, sf1.rowCount(SsbTable.DATE));
        SsbGenerator sf15 = new SsbGenerator(1.5); // dbgen truncates SF >= 1
        for (SsbTable t : SsbTable.values()) {
            assertEquals(sf1.units(t), sf15.units(t), t.tableName());
        }
        assertEquals(400_000, new SsbGenerator(2).units(SsbTable.PART));
        assertEquals(600_000, new SsbGenerator(4).units(SsbTable.PART));
        assertEquals(2557, new SsbGenerator(100).units(SsbTable.DATE));
        SsbGenerator sf001 = new SsbGenerator(0.01); // checked against dbgen -s 0.01 (tables-sf01.txt notes)
        assertEquals(2000, sf001.units(SsbTable.PART));
        assertEquals(20, sf001.units(SsbTable.SUPPLIER));
        assertEquals(300, sf001.units(SsbTable.CUSTOMER));
        assertEquals(25, sf001.units(SsbTable.DATE));
        assertEquals(60176, sf001.rowCount(SsbTable.LINEORDER));
        assertEquals(1, new SsbGenerator(1e-9).units(SsbTable.SUPPLIER));
    }

    @Test
    void partkeysStayWithinTheLnBoundAboveSf1() throws IOException {
        // SF 2 has 400,000 parts but dbgen draws lo_partkey from 1..200,000 (ln, not log2).
        SsbGenerator sf2 = new SsbGenerator(2);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        sf2.write(SsbTable.LINEORDER, 0, 20_000, RowFormat.COPY, out);
        long max = out.toString(java.nio.charset.StandardCharsets.US_ASCII).lines()
            .mapToLong(l -> Long.parseLong(l.split("\\|")[3])).max().orElseThrow();
        assertTrue(max <= 200_000 && max > 199_000, "max lo_partkey " + max);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -1.0, -0.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 100_001})
    void badScaleFactorsAreRefused(double sf) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SsbGenerator(sf));
        assertTrue(e.getMessage().startsWith("scale factor must be"), e.getMessage());
        assertTrue(e.getMessage().contains(String.valueOf(sf)), e.getMessage());
    }

    @Test
    void badRangesAndThreadsAreRefused() {
        OutputStream sink = OutputStream.nullOutputStream();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> SF01.write(SsbTable.SUPPLIER, 0, 201, RowFormat.TBL, sink));
        assertEquals("supplier: unit range [0, 201) outside [0, 200)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SF01.write(SsbTable.PART, 5, 4, RowFormat.TBL, sink));
        assertThrows(IllegalArgumentException.class, () -> SF01.write(SsbTable.PART, -1, 4, RowFormat.TBL, sink));
        assertThrows(IllegalArgumentException.class, () -> SF01.writeFiles(Path.of("unused"), 0));
    }

    @Test
    void tableNames() {
        assertEquals("date", SsbTable.DATE.tableName());
        assertEquals("lineorder.tbl", SsbTable.LINEORDER.fileName());
    }

    static void assertMatches(Reference.Table expected, TblDigest d, SsbTable t) {
        assertTrue(d.complete(), t + ": output ends mid-line");
        assertEquals(expected.rows(), d.lines(), t + " rows");
        assertEquals(expected.bytes(), d.bytes(), t + " bytes");
        assertEquals(expected.firstLines(), d.firstLines(), t + " first lines");
        assertEquals(expected.lastLine(), d.lastLine(), t + " last line");
        assertEquals(expected.md5(), d.md5(), t + " md5");
    }
}
