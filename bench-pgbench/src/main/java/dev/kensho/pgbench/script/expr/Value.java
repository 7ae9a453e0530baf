package dev.kensho.pgbench.script.expr;

/** A pgbench expression value: NULL, boolean, 64-bit integer or double (pgbench's PgBenchValue). */
public final class Value {
    public enum Type { NULL, BOOLEAN, INT, DOUBLE }

    public static final Value NULL = new Value(Type.NULL, 0, 0, false);
    public static final Value TRUE = new Value(Type.BOOLEAN, 0, 0, true);
    public static final Value FALSE = new Value(Type.BOOLEAN, 0, 0, false);

    private final Type type;
    private final long ival;
    private final double dval;
    private final boolean bval;

    private Value(Type type, long ival, double dval, boolean bval) {
        this.type = type;
        this.ival = ival;
        this.dval = dval;
        this.bval = bval;
    }

    public static Value ofInt(long v) {
        return new Value(Type.INT, v, 0, false);
    }

    public static Value ofDouble(double v) {
        return new Value(Type.DOUBLE, 0, v, false);
    }

    public static Value ofBoolean(boolean v) {
        return v ? TRUE : FALSE;
    }

    public Type type() {
        return type;
    }

    public boolean isNull() {
        return type == Type.NULL;
    }

    /** The raw integer (only meaningful for INT). */
    public long intValue() {
        return ival;
    }

    public double doubleValue() {
        return dval;
    }

    public boolean booleanValue() {
        return bval;
    }

    /** pgbench valueTruth: used by \if and CASE WHEN (NULL is false, numbers are true when non-zero). */
    public boolean truth() {
        return switch (type) {
            case NULL -> false;
            case BOOLEAN -> bval;
            case INT -> ival != 0;
            case DOUBLE -> dval != 0.0;
        };
    }

    /** coerceToInt: doubles are rounded half-to-even (C rint) and range-checked. */
    public long toInt() throws EvalException {
        if (type == Type.INT) {
            return ival;
        }
        if (type == Type.DOUBLE) {
            double d = Math.rint(dval);
            if (Double.isNaN(d) || d < -0x1p63 || d >= 0x1p63) {
                throw new EvalException("double to int overflow for " + CFormat.fixed6(d));
            }
            return (long) d;
        }
        throw new EvalException("cannot coerce " + typeName() + " to int");
    }

    public double toDouble() throws EvalException {
        if (type == Type.DOUBLE) {
            return dval;
        }
        if (type == Type.INT) {
            return ival;
        }
        throw new EvalException("cannot coerce " + typeName() + " to double");
    }

    public boolean toBoolean() throws EvalException {
        if (type == Type.BOOLEAN) {
            return bval;
        }
        throw new EvalException("cannot coerce " + typeName() + " to boolean");
    }

    public String typeName() {
        return switch (type) {
            case NULL -> "null";
            case BOOLEAN -> "boolean";
            case INT -> "int";
            case DOUBLE -> "double";
        };
    }

    /** The string pgbench substitutes for the value in SQL (getVariable): NULL, true/false, %lld, %.15g. */
    @Override
    public String toString() {
        return switch (type) {
            case NULL -> "NULL";
            case BOOLEAN -> bval ? "true" : "false";
            case INT -> Long.toString(ival);
            case DOUBLE -> CFormat.g15(dval);
        };
    }

    /** The text pgbench's debug() prints after "debug(script=S,command=C): ". */
    public String debugText() {
        return switch (type) {
            case NULL -> "null";
            case BOOLEAN -> "boolean " + (bval ? "true" : "false");
            case INT -> "int " + ival;
            case DOUBLE -> "double " + CFormat.g15(dval);
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Value v && v.type == type && v.ival == ival
                && Double.compare(v.dval, dval) == 0 && v.bval == bval;
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + Long.hashCode(ival) + Double.hashCode(dval) + (bval ? 1 : 0);
    }
}
