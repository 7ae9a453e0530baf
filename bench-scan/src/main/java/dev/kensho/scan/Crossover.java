package dev.kensho.scan;

/**
 * Where the index scan becomes slower than the full scan for one curve pair.
 *
 * @param layout        high or low clustering
 * @param cache         cold or warm
 * @param sharedBuffers the shared_buffers the curves were measured with
 * @param kind          CROSSED (selectivity interpolated), INDEX_SLOWER_THROUGHOUT (already slower at
 *                      the first point), INDEX_FASTER_THROUGHOUT (never slower up to the last point),
 *                      or INSUFFICIENT (no selectivity with both scans valid)
 * @param selectivity   percent where the median times are equal, linearly interpolated between the
 *                      last point where the index scan was faster and the first where it was slower;
 *                      null unless CROSSED
 * @param below         that last faster point (percent), or null
 * @param above         that first slower point (percent), or null
 * @param signChanges   how often the faster scan changes along the sweep (1 for a clean crossover;
 *                      more means noise or a curve that crosses back)
 * @param points        selectivities where both scans had a valid median
 * @param fitted        where least-squares lines through the two curves meet, when inside the sweep;
 *                      less sensitive to noisy single points than the interpolated crossing (null otherwise)
 */
public record Crossover(Layout layout, CacheState cache, String sharedBuffers, Kind kind, Double selectivity,
                        Double below, Double above, int signChanges, int points, Double fitted) {

    public enum Kind { CROSSED, INDEX_SLOWER_THROUGHOUT, INDEX_FASTER_THROUGHOUT, INSUFFICIENT }

    /**
     * A value for ordering crossovers: the selectivity, or just below the first point / just above the
     * last when the curves never cross inside the sweep; NaN when there was too little data.
     */
    public double orderingValue(double from, double to) {
        return switch (kind) {
            case CROSSED -> selectivity;
            case INDEX_SLOWER_THROUGHOUT -> (above == null ? from : above) - 0.5;
            case INDEX_FASTER_THROUGHOUT -> (below == null ? to : below) + 0.5;
            case INSUFFICIENT -> Double.NaN;
        };
    }

    /** {@code "42.3 %"}, {@code "< 1 %"} (slower from the first point), {@code "> 91 %"} (faster up to the last point) or "n/a". */
    public String describe(double from, double to) {
        return switch (kind) {
            case CROSSED -> String.format(java.util.Locale.ROOT, "%.1f %%", selectivity);
            case INDEX_SLOWER_THROUGHOUT -> "< " + fmt(above == null ? from : above) + " %";
            case INDEX_FASTER_THROUGHOUT -> "> " + fmt(below == null ? to : below) + " %";
            case INSUFFICIENT -> "n/a";
        };
    }

    /**
     * "" for a clean crossover, else what makes its number doubtful: " (curves cross 4 times; fitted lines meet at
     * 42.0 %)" or "… do not meet inside the sweep".
     */
    public String caveat() {
        // "slower throughout" is clean only without a crossing: slower at the first point alone (a noisy cold one) and
        // 5 times faster after it read as "< 1 %" without a word
        if (kind == Kind.CROSSED ? signChanges <= 1 : signChanges == 0) return "";
        return " (curves cross " + (signChanges == 1 ? "once" : signChanges + " times")
                + (kind == Kind.INDEX_SLOWER_THROUGHOUT ? ": the index scan is slower at the first point, not throughout" : "")
                + "; " + (fitted == null ? "fitted lines do not meet inside the sweep"
                : String.format(java.util.Locale.ROOT, "fitted lines meet at %.1f %%", fitted)) + ")";
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
