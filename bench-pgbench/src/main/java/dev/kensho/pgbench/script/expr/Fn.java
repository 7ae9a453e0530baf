package dev.kensho.pgbench.script.expr;

import dev.kensho.pgbench.script.PgbenchRandom;

import java.util.Locale;

/**
 * pgbench's functions and operators with their argument counts and semantics (evalStandardFunc,
 * evalLazyFunc). Arity codes as pgbench: n >= 0 exact, -1 at least one, -2 CASE, -3 one or two
 * (hash; seed defaults to :default_seed), -4 two or three (permute).
 */
enum Fn {
    ADD("+", 2), SUB("-", 2), MUL("*", 2), DIV("/", 2), MOD("mod", 2),
    ABS("abs", 1), LEAST("least", -1), GREATEST("greatest", -1), DEBUG("debug", 1), PI("pi", 0),
    SQRT("sqrt", 1), LN("ln", 1), EXP("exp", 1), INT("int", 1), DOUBLE("double", 1),
    RANDOM("random", 2), RANDOM_GAUSSIAN("random_gaussian", 3), RANDOM_EXPONENTIAL("random_exponential", 3),
    RANDOM_ZIPFIAN("random_zipfian", 3), POW("pow", 2), POWER("power", 2),
    AND("!and", 2), OR("!or", 2), NOT("!not", 1),
    BITAND("&", 2), BITOR("|", 2), BITXOR("#", 2), LSHIFT("<<", 2), RSHIFT(">>", 2),
    EQ("=", 2), NE("<>", 2), LE("<=", 2), LT("<", 2), IS("!is", 2),
    CASE("!case_end", -2),
    HASH("hash", -3), HASH_MURMUR2("hash_murmur2", -3), HASH_FNV1A("hash_fnv1a", -3),
    PERMUTE("permute", -4);

    static final int MAX_FARGS = 16;
    static final double MIN_GAUSSIAN_PARAM = 2.0;
    static final double MIN_ZIPFIAN_PARAM = 1.001;
    static final double MAX_ZIPFIAN_PARAM = 1000.0;

    final String sqlName;
    final int nargs;

    Fn(String sqlName, int nargs) {
        this.sqlName = sqlName;
        this.nargs = nargs;
    }

    /** A function callable by name from a script (case-insensitive, as pgbench's pg_strcasecmp). */
    static Fn byName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (Fn f : values()) {
            if (f.sqlName.equals(n)) {
                return f;
            }
        }
        return null;
    }

    Value apply(Expr[] args, Expr.Context ctx) throws EvalException {
        switch (this) {
            case AND, OR, CASE:
                return lazy(args, 0, ctx);
            default:
                break;
        }
        Value[] v = new Value[Math.min(args.length, MAX_FARGS)];
        boolean hasNull = false;
        for (int i = 0; i < v.length; i++) {
            v[i] = args[i].eval(ctx);
            hasNull |= v[i].isNull();
        }
        // pgbench evaluates the first MAX_FARGS arguments (a debug() among them prints) before it fails
        if (args.length > MAX_FARGS) {
            throw new EvalException("too many function arguments, maximum is " + MAX_FARGS);
        }
        if (hasNull && this != IS && this != DEBUG) {
            return Value.NULL;
        }
        return standard(v, ctx);
    }

    private Value lazy(Expr[] args, int from, Expr.Context ctx) throws EvalException {
        if (this == CASE) {
            // WHEN by WHEN in a loop, where pgbench recurses: a CASE of 2000 branches overflowed a client thread's stack
            for (int at = from; ; at += 2) {
                if (args[at].eval(ctx).truth()) return args[at + 1].eval(ctx);
                if (at + 2 == args.length - 1) return args[at + 2].eval(ctx);
            }
        }
        Value a1 = args[from].eval(ctx);
        if (a1.isNull()) {
            return Value.NULL;
        }
        boolean b1 = a1.toBoolean();
        if (this == AND ? !b1 : b1) {
            return Value.ofBoolean(b1);
        }
        Value a2 = args[from + 1].eval(ctx);
        if (a2.isNull()) {
            return Value.NULL;
        }
        return Value.ofBoolean(a2.toBoolean());
    }

    private Value standard(Value[] v, Expr.Context ctx) throws EvalException {
        switch (this) {
            case ADD, SUB, MUL, DIV, MOD, EQ, NE, LE, LT: {
                Value l = v[0];
                Value r = v[1];
                if (this != MOD && (l.type() == Value.Type.DOUBLE || r.type() == Value.Type.DOUBLE)) {
                    double ld = l.toDouble();
                    double rd = r.toDouble();
                    return switch (this) {
                        case ADD -> Value.ofDouble(ld + rd);
                        case SUB -> Value.ofDouble(ld - rd);
                        case MUL -> Value.ofDouble(ld * rd);
                        case DIV -> Value.ofDouble(ld / rd);
                        case EQ -> Value.ofBoolean(ld == rd);
                        case NE -> Value.ofBoolean(ld != rd);
                        case LE -> Value.ofBoolean(ld <= rd);
                        default -> Value.ofBoolean(ld < rd);
                    };
                }
                long li = l.toInt();
                long ri = r.toInt();
                switch (this) {
                    case ADD: {
                        long res = li + ri;
                        if (((li ^ res) & (ri ^ res)) < 0) {
                            throw new EvalException("bigint add out of range");
                        }
                        return Value.ofInt(res);
                    }
                    case SUB: {
                        long res = li - ri;
                        if (((li ^ ri) & (li ^ res)) < 0) {
                            throw new EvalException("bigint sub out of range");
                        }
                        return Value.ofInt(res);
                    }
                    case MUL: {
                        long hi = Math.multiplyHigh(li, ri);
                        long res = li * ri;
                        if (hi != (res >> 63)) {
                            throw new EvalException("bigint mul out of range");
                        }
                        return Value.ofInt(res);
                    }
                    case EQ:
                        return Value.ofBoolean(li == ri);
                    case NE:
                        return Value.ofBoolean(li != ri);
                    case LE:
                        return Value.ofBoolean(li <= ri);
                    case LT:
                        return Value.ofBoolean(li < ri);
                    default: {
                        if (ri == 0) {
                            throw new EvalException("division by zero");
                        }
                        if (ri == -1) {
                            if (this == DIV) {
                                if (li == Long.MIN_VALUE) {
                                    throw new EvalException("bigint div out of range");
                                }
                                return Value.ofInt(-li);
                            }
                            return Value.ofInt(0);
                        }
                        return Value.ofInt(this == DIV ? li / ri : li % ri);
                    }
                }
            }
            case BITAND, BITOR, BITXOR, LSHIFT, RSHIFT: {
                long li = v[0].toInt();
                long ri = v[1].toInt();
                return Value.ofInt(switch (this) {
                    case BITAND -> li & ri;
                    case BITOR -> li | ri;
                    case BITXOR -> li ^ ri;
                    case LSHIFT -> li << ri;
                    default -> li >> ri;
                });
            }
            case NOT:
                return Value.ofBoolean(!v[0].toBoolean());
            case IS:
                // As pgbench: same type, and for booleans the same value (NULL IS NULL is true).
                return Value.ofBoolean(v[0].type() == v[1].type()
                        && v[0].booleanValue() == v[1].booleanValue());
            case ABS:
                if (v[0].type() == Value.Type.INT) {
                    long i = v[0].intValue();
                    return Value.ofInt(i < 0 ? -i : i);
                } else {
                    double d = v[0].toDouble();
                    return Value.ofDouble(d < 0.0 ? -d : d);
                }
            case DEBUG:
                ctx.debug(v[0]);
                return v[0];
            case DOUBLE:
                return Value.ofDouble(v[0].toDouble());
            case INT:
                return Value.ofInt(v[0].toInt());
            case SQRT:
                return Value.ofDouble(Math.sqrt(v[0].toDouble()));
            case LN:
                return Value.ofDouble(Math.log(v[0].toDouble()));
            case EXP:
                return Value.ofDouble(Math.exp(v[0].toDouble()));
            case PI:
                return Value.ofDouble(Math.PI);
            case POW, POWER:
                return Value.ofDouble(Math.pow(v[0].toDouble(), v[1].toDouble()));
            case LEAST, GREATEST: {
                boolean haveDouble = false;
                for (Value x : v) {
                    haveDouble |= x.type() == Value.Type.DOUBLE;
                }
                if (haveDouble) {
                    double ext = v[0].toDouble();
                    for (int i = 1; i < v.length; i++) {
                        double d = v[i].toDouble();
                        ext = this == LEAST ? (ext < d ? ext : d) : (ext > d ? ext : d);
                    }
                    return Value.ofDouble(ext);
                }
                long ext = v[0].toInt();
                for (int i = 1; i < v.length; i++) {
                    long x = v[i].toInt();
                    ext = this == LEAST ? Math.min(ext, x) : Math.max(ext, x);
                }
                return Value.ofInt(ext);
            }
            case RANDOM, RANDOM_GAUSSIAN, RANDOM_EXPONENTIAL, RANDOM_ZIPFIAN: {
                long imin = v[0].toInt();
                long imax = v[1].toInt();
                if (imin > imax) {
                    throw new EvalException("empty range given to random");
                }
                long delta = imax - imin;
                if (((imax ^ imin) & (imax ^ delta)) < 0 || delta == Long.MAX_VALUE) {
                    throw new EvalException("random range is too large");
                }
                PgbenchRandom rs = ctx.random();
                if (this == RANDOM) {
                    return Value.ofInt(rs.nextInRange(imin, imax));
                }
                double param = v[2].toDouble();
                if (this == RANDOM_GAUSSIAN) {
                    if (param < MIN_GAUSSIAN_PARAM) {
                        throw new EvalException("gaussian parameter must be at least "
                                + CFormat.fixed6(MIN_GAUSSIAN_PARAM) + " (not " + CFormat.fixed6(param) + ")");
                    }
                    return Value.ofInt(rs.nextGaussian(imin, imax, param));
                }
                if (this == RANDOM_ZIPFIAN) {
                    if (param < MIN_ZIPFIAN_PARAM || param > MAX_ZIPFIAN_PARAM) {
                        throw new EvalException("zipfian parameter must be in range [1.001, 1000] (not "
                                + CFormat.fixed6(param) + ")");
                    }
                    return Value.ofInt(rs.nextZipfian(imin, imax, param));
                }
                if (param <= 0.0) {
                    throw new EvalException("exponential parameter must be greater than zero (not "
                            + CFormat.fixed6(param) + ")");
                }
                return Value.ofInt(rs.nextExponential(imin, imax, param));
            }
            case HASH, HASH_MURMUR2, HASH_FNV1A: {
                long val = v[0].toInt();
                long seed = v[1].toInt();
                return Value.ofInt(this == HASH_FNV1A ? Hashes.fnv1a(val, seed) : Hashes.murmur2(val, seed));
            }
            case PERMUTE: {
                long val = v[0].toInt();
                long size = v[1].toInt();
                long seed = v[2].toInt();
                if (size <= 0) {
                    throw new EvalException("permute size parameter must be greater than zero");
                }
                return Value.ofInt(Hashes.permute(val, size, seed));
            }
            default:
                throw new IllegalStateException("unexpected function " + this);
        }
    }
}
