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

    /** The outcome, for a table row: the x, or why there is none. */
    public record Result(Optional<Double> x, String text) {}

    /** index and seq must be sorted by x; only x values both measured are compared. */
    public static Result find(List<Point> index, List<Point> seq) {
        double prevX = Double.NaN, prevD = Double.NaN;
        int compared = 0;
        for (Point ip : index) {
            double x = Cells.number(ip.x());
            Point sp = seq.stream().filter(p -> Cells.number(p.x()) == x).findFirst().orElse(null);
            if (sp == null) continue;
            double d = ip.median() - sp.median();
            compared++;
            if (compared == 1 && d > 0) return new Result(Optional.empty(), "index scan slower already at " + Cells.text(x));
            if (!Double.isNaN(prevD) && prevD <= 0 && d > 0) {
                double cx = prevX + (x - prevX) * (0 - prevD) / (d - prevD);
                return new Result(Optional.of(cx), "crossover at " + Cells.text(round(cx)));
            }
            prevX = x;
            prevD = d;
        }
        if (compared == 0) return new Result(Optional.empty(), "no common points");
        return new Result(Optional.empty(), "index scan faster throughout (up to " + Cells.text(prevX) + ")");
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
