package dev.kensho.scan;

/**
 * One of the study's expectations checked against the measured curves.
 *
 * @param name   what is expected ("index wins at 1 %: high, warm")
 * @param passed true/false, or null when the data could not decide
 * @param detail the numbers behind the verdict
 */
public record Check(String name, Boolean passed, String detail) {

    public String verdict() {
        return passed == null ? "undecided" : passed ? "as expected" : "NOT as expected";
    }
}
