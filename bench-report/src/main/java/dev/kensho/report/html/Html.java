package dev.kensho.report.html;

import java.util.List;
import java.util.Locale;

/** Escaping, number formatting and the page frame shared by the report and the comparison. */
public final class Html {
    private Html() {}

    private static final String CSS = """
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK JP",sans-serif;
              color:#1d1d1f;margin:0 auto;max-width:1600px;padding:24px}
            p,ul,pre,figure,details>summary{max-width:1100px}
            h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
            h3{font-size:15px;margin:20px 0 6px}
            .sub{color:#666;margin:0 0 16px}
            code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f5f5f7;border-radius:4px}
            code{padding:1px 4px}pre{padding:10px;overflow-x:auto;white-space:pre-wrap}
            .scroll{overflow-x:auto}
            table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums;font-size:13px}
            th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
            th{background:#f5f5f7;font-weight:600}td.num{text-align:right;white-space:nowrap}
            tr.bad td{background:#fff4f2}tr.warn td{background:#fffbe6}
            .range{color:#777;font-size:.9em}
            figure{margin:16px 0 24px}figure svg{width:100%;height:auto;display:block;border:1px solid #eee}
            figcaption{color:#444;font-size:13px;margin-top:4px}
            .sig{font-weight:600;color:#b00020}
            .warnings{color:#8a5a00}
            details{margin:4px 0 10px}summary{cursor:pointer;color:#0b57d0}
            .print-only{display:none}
            @media print{
              body{max-width:none;padding:0;font-size:10.5px}
              p,ul,pre,figure,details>summary{max-width:none}
              .scroll,pre{overflow:visible}
              /* the table of every metric is wider than a page: printed, its columns past the edge were lost, so the
                 printout names summary.csv instead */
              details.wide{display:none}.print-only{display:block}
              table{font-size:9px;margin:4px 0 8px}th,td{padding:1px 4px}
              thead{display:table-header-group}tr,figure{break-inside:avoid}
              h2,h3{break-after:avoid}
              summary{color:inherit}
              /* folded sections print open: a printed sweep report had lost its host charts */
              details::details-content{content-visibility:visible;display:block}
            }
            """;

    public static String esc(Object o) {
        String s = String.valueOf(o);
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** Numbers as people read them in a table: integers whole, then 1, 3 or 4 significant places. */
    public static String num(Double v) {
        if (v == null || v.isNaN()) return "–";
        if (v.isInfinite()) return v > 0 ? "∞" : "−∞";
        double a = Math.abs(v);
        if (v == Math.rint(v) && a < 1e15) return Long.toString(v.longValue());
        if (a >= 100) return String.format(Locale.ROOT, "%.1f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.3f", v);
        return String.format(Locale.ROOT, "%.4g", v);
    }

    /**
     * As {@link #num(Double)} for a value in a table's column: where the column also holds fractions, an integral value
     * keeps the decimals of its size, so that a median of 13 reads "13.000" under "18.450", not "13".
     */
    public static String num(Double v, boolean wholeColumn) {
        if (wholeColumn || v == null || !Double.isFinite(v) || v != Math.rint(v)) return num(v);
        double a = Math.abs(v);
        return String.format(Locale.ROOT, a >= 100 ? "%.1f" : a >= 1 ? "%.3f" : "%.4g", v);
    }

    /** Whether every value of a column is a whole number (nulls, cells without one, aside). */
    public static boolean whole(java.util.Collection<Double> column) {
        return column.stream().allMatch(v -> v == null || !Double.isFinite(v) || v == Math.rint(v));
    }

    /** p-values: four decimals, "&lt; 0.0001" below. */
    public static String p(double p) {
        if (Double.isNaN(p)) return "–";
        return p < 1e-4 ? "< 0.0001" : String.format(Locale.ROOT, "%.4f", p);
    }

    public static String ratio(double r) {
        // a baseline median of 0: no ratio to give ("–"), whatever the group's
        return Double.isNaN(r) || Double.isInfinite(r) ? "–" : String.format(Locale.ROOT, "%.3f", r);
    }

    public static String page(String title, String body) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" + esc(title)
                + "</title>\n<style>\n" + CSS + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
    }

    /** A table: header cells and rows of already-escaped cell HTML; a cell starting with "\u0001" is numeric. */
    public static String table(List<String> header, List<List<String>> rows) {
        StringBuilder b = new StringBuilder("<div class=\"scroll\"><table>\n<thead><tr>");
        header.forEach(h -> b.append("<th>").append(esc(h)).append("</th>"));
        b.append("</tr></thead>\n<tbody>\n");
        for (List<String> r : rows) {
            String cls = "";
            if (!r.isEmpty() && r.get(0).startsWith("\u0002")) cls = " class=\"bad\"";
            b.append("<tr").append(cls).append(">");
            for (String c : r) {
                String cell = c.startsWith("\u0002") ? c.substring(1) : c;
                if (cell.startsWith("\u0001")) b.append("<td class=\"num\">").append(cell.substring(1)).append("</td>");
                else b.append("<td>").append(cell).append("</td>");
            }
            b.append("</tr>\n");
        }
        return b.append("</tbody></table></div>\n").toString();
    }

    /** Marks a cell value as numeric (right-aligned). */
    public static String n(String html) {
        return "\u0001" + html;
    }

    /** Marks a row (through its first cell) as a problem row. */
    public static String bad(String html) {
        return "\u0002" + html;
    }
}
