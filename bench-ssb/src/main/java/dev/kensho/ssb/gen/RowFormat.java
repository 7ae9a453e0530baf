package dev.kensho.ssb.gen;

/** How a row is terminated; fields are always separated by {@code '|'} and never escaped (SSB values contain no
 *  {@code '|'}, backslash or newline). */
public enum RowFormat {
    /** dbgen's default: {@code '|'} after every field including the last, then {@code '\n'}. */
    TBL,
    /** {@code '|'} between fields only, then {@code '\n'}: for {@code COPY t FROM STDIN (FORMAT text, DELIMITER '|')}. */
    COPY
}
