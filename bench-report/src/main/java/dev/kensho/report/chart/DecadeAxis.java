package dev.kensho.report.chart;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.math.BigDecimal;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.TickType;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;

/**
 * A base-10 log axis labelled by how many decades it spans: every step of a decade within about half of one, 1, 2, 3
 * and 5 within one and a half, 1, 2 and 5 within three and a half (a scan's 0.15–150 ms), powers of ten beyond; the
 * other steps are unlabelled minor ticks. Labels stay 30 px or more apart at the report's size. Powers of ten alone
 * left a pgbench run's 0.3–4 ms latencies a single label ("1"), nothing to read a value against.
 */
final class DecadeAxis extends LogAxis {
    private static final long serialVersionUID = 1L;

    DecadeAxis(String label) {
        super(label);
        setBase(10);
        setNumberFormatOverride(Style.decimal("0.######"));
    }

    @Override
    @SuppressWarnings("rawtypes")
    protected List refreshTicksVertical(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
        return ticks(edge == RectangleEdge.RIGHT ? TextAnchor.CENTER_LEFT : TextAnchor.CENTER_RIGHT);
    }

    @Override
    @SuppressWarnings("rawtypes")
    protected List refreshTicksHorizontal(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
        return ticks(edge == RectangleEdge.TOP ? TextAnchor.BOTTOM_CENTER : TextAnchor.TOP_CENTER);
    }

    private List<NumberTick> ticks(TextAnchor anchor) {
        List<NumberTick> ticks = new ArrayList<>();
        double lo = getLowerBound(), hi = getUpperBound();
        if (!(lo > 0) || !(hi > lo) || Double.isInfinite(hi)) return ticks;
        int first = (int) Math.floor(Math.log10(lo)), last = (int) Math.ceil(Math.log10(hi));
        double decades = Math.log10(hi / lo);
        Set<Integer> steps = decades <= 0.6 ? Set.of(1, 2, 3, 4, 5, 6, 7, 8, 9) : decades <= 1.5 ? Set.of(1, 2, 3, 5)
                : decades <= 3.5 ? Set.of(1, 2, 5) : Set.of(1);
        NumberFormat f = getNumberFormatOverride();
        for (int e = first; e <= last; e++) {
            for (int m = 1; m <= 9; m++) {
                // exact decimals (0.3, not 0.30000000000000004), so a label's value is the one drawn
                double v = BigDecimal.valueOf(m).scaleByPowerOfTen(e).doubleValue();
                if (v < lo || v > hi) continue;
                boolean labelled = steps.contains(m);
                ticks.add(new NumberTick(labelled ? TickType.MAJOR : TickType.MINOR, v, labelled ? f.format(v) : "",
                        anchor, TextAnchor.CENTER, 0));
            }
        }
        return ticks;
    }
}
