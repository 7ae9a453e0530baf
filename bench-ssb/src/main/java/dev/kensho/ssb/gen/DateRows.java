package dev.kensho.ssb.gen;

import java.time.LocalDate;

/**
 * date: no randomness, row k is 1992-01-01 plus k days (dbgen's UTC output; plain calendar arithmetic needs no time
 * zone). dbgen's quirks are kept: day names are one day late, the "weekday" flag is 0 on real Fridays and Saturdays,
 * the "last day in week" flag is 1 on real Fridays, week number = day of year / 7 + 1.
 */
final class DateRows implements TableRows {
    static final LocalDate START = LocalDate.of(1992, 1, 1);

    private static final String[] MONTHS = {
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December"};
    private static final String[] DAYS = {
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};

    /** {@code YYYYMMDD} of START + offset days, for lineorder's order and commit dates. */
    static byte[][] datekeys(int count) {
        byte[][] out = new byte[count][];
        for (int i = 0; i < count; i++) {
            LocalDate d = START.plusDays(i);
            out[i] = Distributions.ascii(Integer.toString(d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth()));
        }
        return out;
    }

    @Override
    public void write(long from, long to, RowBuffer out) throws java.io.IOException {
        for (long k = from; k < to; k++) {
            LocalDate d = START.plusDays(k);
            int y = d.getYear();
            int m = d.getMonthValue();
            int day = d.getDayOfMonth();
            int wday = d.getDayOfWeek().getValue() % 7; // C tm_wday: Sunday = 0
            int dayNumInWeek = (wday + 1) % 7 + 1;
            int dayOfYear = d.getDayOfYear();
            String month = MONTHS[m - 1];

            out.ensure(RowBuffer.MAX_ROW);
            out.field(y * 10000 + m * 100 + day);
            out.field(Distributions.ascii(month + " " + day + ", " + y));
            out.field(Distributions.ascii(DAYS[dayNumInWeek - 1]));
            out.field(Distributions.ascii(month));
            out.field(y);
            out.field(y * 100 + m);
            out.field(Distributions.ascii(month.substring(0, 3) + y));
            out.field(dayNumInWeek);
            out.field(day);
            out.field(dayOfYear);
            out.field(m);
            out.field(dayOfYear / 7 + 1);
            out.field(Distributions.ascii(season(m)));
            out.field(dayNumInWeek == 7 ? 1 : 0);
            out.field(day == d.lengthOfMonth() ? 1 : 0);
            out.field(holiday(m, day) ? 1 : 0);
            out.field(dayNumInWeek == 1 || dayNumInWeek == 7 ? 0 : 1);
            out.endRow();
        }
    }

    private static String season(int m) {
        if (m >= 11) return "Christmas";
        if (m >= 5 && m <= 8) return "Summer";
        if (m <= 3) return "Winter";
        if (m == 4) return "Spring";
        return "Fall";
    }

    private static boolean holiday(int m, int d) {
        return (m == 12 && d == 24) || (m == 1 && d == 1) || (d == 20 && m >= 2 && m <= 11 && m != 3 && m != 6);
    }
}
