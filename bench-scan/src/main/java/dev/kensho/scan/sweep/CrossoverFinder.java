package dev.kensho.scan.sweep;

import dev.kensho.core.result.CellSummary;
import dev.kensho.scan.CacheState;
import dev.kensho.scan.Check;
import dev.kensho.scan.Crossover;
import dev.kensho.scan.Layout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The crossover of each (shared_buffers, cache, layout) curve pair from the cells' median times, and
 * the study's expectations checked against them: the index scan wins at the lowest selectivity, and
 * the crossover lies at a larger selectivity for high clustering than for low (まとめ: "逆転する
 * 抽出量は、テーブル内のデータの並び方により変化する").
 */
public final class CrossoverFinder {
    private CrossoverFinder() {}

    /** Median index and full time at one selectivity. */
    record Point(double percent, double index, double full) {
        double diff() {
            return index - full;
        }
    }

    public static List<Crossover> find(List<CellSummary> cells) {
        Map<List<String>, TreeMap<Double, double[]>> curves = new LinkedHashMap<>();
        for (CellSummary c : cells) {
            if (!"ok".equals(c.status())) continue;
            Double ms = c.median().get("time_ms");
            if (ms == null) continue;
            List<String> group = List.of(String.valueOf(c.params().get("shared_buffers")),
                    String.valueOf(c.params().get("cache")), String.valueOf(c.params().get("layout")));
            double pct = ((Number) c.params().get("selectivity_pct")).doubleValue();
            double[] pair = curves.computeIfAbsent(group, k -> new TreeMap<>()).computeIfAbsent(pct, k -> new double[] {Double.NaN, Double.NaN});
            pair["index".equals(c.params().get("scan")) ? 0 : 1] = ms;
        }
        List<Crossover> out = new ArrayList<>();
        for (var e : curves.entrySet()) {
            List<Point> pts = new ArrayList<>();
            e.getValue().forEach((pct, v) -> {
                if (!Double.isNaN(v[0]) && !Double.isNaN(v[1])) pts.add(new Point(pct, v[0], v[1]));
            });
            out.add(crossover(e.getKey().get(0), cache(e.getKey().get(1)), Layout.parse(e.getKey().get(2)), pts));
        }
        return out;
    }

    static Crossover crossover(String sb, CacheState cache, Layout layout, List<Point> pts) {
        // one point decides which scan wins there: a single --from = --to said "n/a" and left the study's check undecided
        if (pts.isEmpty()) {
            return new Crossover(layout, cache, sb, Crossover.Kind.INSUFFICIENT, null, null, null, 0, pts.size(), null);
        }
        int changes = 0;
        for (int i = 1; i < pts.size(); i++) {
            if ((pts.get(i - 1).diff() > 0) != (pts.get(i).diff() > 0)) changes++;
        }
        Double fitted = fitted(pts);
        if (pts.get(0).diff() > 0) {
            return new Crossover(layout, cache, sb, Crossover.Kind.INDEX_SLOWER_THROUGHOUT, null, null,
                    pts.get(0).percent(), changes, pts.size(), fitted);
        }
        for (int i = 1; i < pts.size(); i++) {
            Point a = pts.get(i - 1);
            Point b = pts.get(i);
            if (a.diff() <= 0 && b.diff() > 0) {
                double x = a.percent() + (b.percent() - a.percent()) * (-a.diff()) / (b.diff() - a.diff());
                return new Crossover(layout, cache, sb, Crossover.Kind.CROSSED, x, a.percent(), b.percent(), changes, pts.size(), fitted);
            }
        }
        return new Crossover(layout, cache, sb, Crossover.Kind.INDEX_FASTER_THROUGHOUT, null,
                pts.get(pts.size() - 1).percent(), null, changes, pts.size(), fitted);
    }

    /** Intersection of the least-squares lines through the index and the full curve, if inside the points. */
    static Double fitted(List<Point> pts) {
        int n = pts.size();
        double sx = 0, sxx = 0, si = 0, sxi = 0, sf = 0, sxf = 0;
        for (Point p : pts) {
            sx += p.percent();
            sxx += p.percent() * p.percent();
            si += p.index();
            sxi += p.percent() * p.index();
            sf += p.full();
            sxf += p.percent() * p.full();
        }
        double den = n * sxx - sx * sx;
        if (den == 0) return null;
        double bi = (n * sxi - sx * si) / den;
        double ai = (si - bi * sx) / n;
        double bf = (n * sxf - sx * sf) / den;
        double af = (sf - bf * sx) / n;
        if (bi == bf) return null;
        double x = (af - ai) / (bi - bf);
        return x >= pts.get(0).percent() && x <= pts.get(n - 1).percent() ? x : null;
    }

    private static CacheState cache(String label) {
        for (CacheState c : CacheState.values()) if (c.label().equals(label)) return c;
        throw new IllegalArgumentException(label);
    }

    /** The study's expectations for every (shared_buffers, cache) that has both layouts. */
    public static List<Check> check(List<Crossover> crossovers, double from, double to) {
        List<Check> out = new ArrayList<>();
        for (Crossover c : crossovers) {
            String where = c.layout().label() + ", " + c.cache().label() + ", shared_buffers " + c.sharedBuffers();
            Boolean wins = switch (c.kind()) {
                case INSUFFICIENT -> null;
                case INDEX_SLOWER_THROUGHOUT -> false;
                default -> true;
            };
            // the caveat too: a crossover of curves that cross 3 times read as a clean 25.7 % beside "as expected"
            out.add(new Check("index scan faster at the lowest selectivity (" + where + ")", wins,
                    "crossover " + c.describe(from, to) + c.caveat()));
        }
        for (Crossover high : crossovers) {
            if (high.layout() != Layout.HIGH) continue;
            for (Crossover low : crossovers) {
                if (low.layout() != Layout.LOW || low.cache() != high.cache()
                        || !Objects.equals(low.sharedBuffers(), high.sharedBuffers())) continue;
                double h = high.orderingValue(from, to);
                double l = low.orderingValue(from, to);
                boolean bothOutside = high.kind() == low.kind() && high.kind() != Crossover.Kind.CROSSED;
                Boolean passed = Double.isNaN(h) || Double.isNaN(l) || bothOutside ? null : h > l;
                out.add(new Check("crossover at a larger selectivity for high clustering than for low ("
                        + high.cache().label() + ", shared_buffers " + high.sharedBuffers() + ")", passed,
                        String.format(Locale.ROOT, "high %s%s, low %s%s", high.describe(from, to), high.caveat(), low.describe(from, to),
                                low.caveat())));
            }
        }
        return out;
    }
}
