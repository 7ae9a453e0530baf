package dev.kensho.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How every number in the reports reads; expected by the rules in Html's comments, rounded by hand. */
class HtmlTest {
    @Test
    void numbers() {
        assertEquals("–", Html.num((Double) null));
        assertEquals("–", Html.num(Double.NaN));
        assertEquals("∞", Html.num(Double.POSITIVE_INFINITY));
        assertEquals("−∞", Html.num(Double.NEGATIVE_INFINITY));
        assertEquals("42", Html.num(42.0));
        assertEquals("-3", Html.num(-3.0));
        assertEquals("1234.6", Html.num(1234.56));
        assertEquals("-250.5", Html.num(-250.5));
        assertEquals("12.346", Html.num(12.3456));
        assertEquals("1.500", Html.num(1.5));
        assertEquals("0.01235", Html.num(0.0123456));
    }

    /** Four decimals down to 0.0001 itself; below it "< 0.0001"; no p at all as a dash. */
    @Test
    void pValues() {
        assertEquals("0.0001", Html.p(1e-4));
        assertEquals("< 0.0001", Html.p(9.9e-5));
        assertEquals("0.0500", Html.p(0.05));
        assertEquals("1.0000", Html.p(1));
        assertEquals("–", Html.p(Double.NaN));
    }

    @Test
    void ratios() {
        assertEquals("0.950", Html.ratio(0.95));
        assertEquals("–", Html.ratio(Double.POSITIVE_INFINITY));
        assertEquals("–", Html.ratio(Double.NaN));
    }
}
