package dev.kensho.report.chart;

import java.util.List;
import java.util.Optional;

/**
 * Where the index scan's time line crosses the full scan's from below (the index stops paying):
 * the first x where index − seq changes from ≤ 0 to &gt; 0, interpolated linearly between the two
 * measured points, as study 003 reads its crossover points off the chart.
 */
public final class Crossover {
    private Crossover() {}

    /**
     * The outcome, for a table row: the x, or why there is none.
     *
     * @param crossings how often the faster side changes along x: more than 1 makes the first crossing a doubtful
     *                  number (noise, or curves that cross back), which text says
     */
    public record Result(Optional<Double> x, String text, int crossings) {}

    public static Result find(List<Point> index, List<Point> seq) {
        return find(index, seq, "");
    }

    /** index and seq must be sorted by x; only x values both measured are compared; unit follows each x (" %"). */
    public static Result find(List<Point> index, List<Point> seq, String unit) {
        double prevX = Double.NaN, prevD = Double.NaN, firstX = Double.NaN, crossedAt = Double.NaN;
        boolean slowerFirst = false;
        int compared = 0, crossings = 0;
        for (Point ip : index) {
            double x = Cells.number(ip.x());
            Point sp = seq.stream().filter(p -> Cells.number(p.x()) == x).findFirst().orElse(null);
            if (sp == null) continue;
            double d = ip.median() - sp.median();
            if (++compared == 1) {
                firstX = x;
                slowerFirst = d > 0;
            } else {
                if ((prevD > 0) != (d > 0)) crossings++;
                if (!slowerFirst && Double.isNaN(crossedAt) && prevD <= 0 && d > 0) crossedAt = prevX + (x - prevX) * (0 - prevD) / (d - prevD);
            }
            prevX = x;
            prevD = d;
        }
        if (compared == 0) return new Result(Optional.empty(), "no common points", 0);
        String caveat = crossings > 1 ? " (curves cross " + crossings + " times)" : "";
        if (slowerFirst) return new Result(Optional.empty(), "index scan slower already at " + Cells.text(firstX) + unit + caveat, crossings);
        if (!Double.isNaN(crossedAt)) {
            return new Result(Optional.of(crossedAt), "crossover at " + Cells.text(round(crossedAt)) + unit + caveat, crossings);
        }
        return new Result(Optional.empty(), "index scan faster throughout (up to " + Cells.text(prevX) + unit + ")" + caveat, crossings);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
