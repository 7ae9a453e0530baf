package dev.kensho.pgbench.script.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Lexer and parser for pgbench's expression language (exprscan.l, exprparse.y): same tokens, same
 * precedences (lowest first: OR, AND, NOT, IS/ISNULL/NOTNULL, comparisons, bitwise, + -, * / %, unary),
 * same constant overflow and function arity errors. An expression ends at an unescaped newline;
 * backslash-newline (or backslash-CR-LF) continues it.
 */
public final class ExprParser {
    private enum K {
        INT, DOUBLE, MAXINT_PLUS_ONE, VAR, IDENT, AND, OR, NOT, IS, ISNULL, NOTNULL, TRUE, FALSE, NULL,
        CASE, WHEN, THEN, ELSE, END, OP, LPAREN, RPAREN, COMMA, EOL
    }

    private record Tok(K kind, String text, int start, int end, long ival, double dval) {
    }

    private final String src;
    private final int limit;
    private int pos;
    private Tok tok;

    private ExprParser(String src, int from, int limit) {
        this.src = src;
        this.pos = from;
        this.limit = limit;
    }

    /** Result of {@link #parse}: the expression and the offset just after it (past its newline, if any). */
    public record Parsed(Expr expr, int end) {
    }

    /** Parses one expression starting at {@code from}, up to the end of the (continued) line. */
    public static Parsed parse(String src, int from) throws ExprSyntaxException {
        if (src.length() - from < DEEP_TEXT) {
            return parseHere(src, from);
        }
        // Nesting up to bison's limit recurses deeper than a default thread stack allows.
        Parsed[] parsed = new Parsed[1];
        ExprSyntaxException[] failed = new ExprSyntaxException[1];
        Thread t = new Thread(null, () -> {
            try {
                parsed[0] = parseHere(src, from);
            } catch (ExprSyntaxException e) {
                failed[0] = e;
            }
        }, "expression-parser", PARSER_STACK_BYTES);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExprSyntaxException("interrupted", null, from);
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        return parsed[0];
    }

    private static Parsed parseHere(String src, int from) throws ExprSyntaxException {
        ExprParser p = new ExprParser(src, from, src.length());
        try {
            p.advance();
            Expr e = p.expr(0, 0);
            if (p.tok.kind != K.EOL) {
                throw p.syntaxError();
            }
            return new Parsed(e, p.pos);
        } catch (ExprSyntaxException first) {
            throw p.lastLexicalErrorAfter(first);
        }
    }

    /**
     * The error pgbench reports for {@code first}: its expr_yyerror_more lexes the rest of the (continued) line
     * before reporting, and a lexical error there (an unexpected character, a constant overflow) reports itself
     * the same way, so the last one of them wins over any error before it ("\set x foo() @" names the '@').
     */
    private ExprSyntaxException lastLexicalErrorAfter(ExprSyntaxException first) {
        ExprSyntaxException last = first;
        boolean atEol = tok != null && tok.kind == K.EOL;   // pgbench's last_was_newline: the line is read
        while (!atEol && pos < limit) {
            try {
                atEol = lex().kind == K.EOL;
            } catch (ExprSyntaxException lexical) {
                last = lexical;
            }
        }
        return last;
    }

    /**
     * Texts shorter than this cannot nest deep enough to need {@link #PARSER_STACK_BYTES} on any thread's stack
     * (a chain of prefix operators recurses several frames per character; 2000 of them overflowed a default stack).
     * Parsing happens once, when the script is read, so a thread for a longer text costs nothing per transaction.
     */
    private static final int DEEP_TEXT = 200;
    private static final long PARSER_STACK_BYTES = 256L << 20;

    /**
     * bison's YYMAXDEPTH: pgbench's parser stack holds its initial state and at most 9998 grammar symbols;
     * one more and it fails with "memory exhausted". The parse methods below take {@code base}, the symbols
     * the equivalent bison parse has on its stack below the construct being parsed, and check each shift.
     */
    private static final int MAX_STACK_SYMBOLS = 9998;

    private void shifted(int symbols, int offset) throws ExprSyntaxException {
        if (symbols > MAX_STACK_SYMBOLS) {
            throw new ExprSyntaxException("memory exhausted", null, offset);
        }
    }

    /** True for a function a script can call by name (abs, random, ...), case-insensitive. */
    public static boolean isFunctionName(String name) {
        Fn fn = Fn.byName(name);
        return fn != null && !fn.sqlName.startsWith("!") && Character.isLetter(fn.sqlName.charAt(0));
    }

    // ---------------------------------------------------------------- lexer

    private static boolean isAlpha(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    private static boolean isAlnum(char c) {
        return isAlpha(c) || (c >= '0' && c <= '9');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void advance() throws ExprSyntaxException {
        tok = lex();
    }

    /** exprscan.l's continuation, {@code \\\r?\n}: its length at {@code at}, or 0. */
    public static int continuation(String src, int at, int limit) {
        if (at + 1 < limit && src.charAt(at) == '\\') {
            if (src.charAt(at + 1) == '\n') return 2;
            if (src.charAt(at + 1) == '\r' && at + 2 < limit && src.charAt(at + 2) == '\n') return 3;
        }
        return 0;
    }

    private Tok lex() throws ExprSyntaxException {
        while (pos < limit) {
            char c = src.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b) {
                pos++;
            } else if (c == '\\' && continuation(src, pos, limit) > 0) {
                pos += continuation(src, pos, limit);
            } else {
                break;
            }
        }
        int start = pos;
        if (pos >= limit) {
            return new Tok(K.EOL, "", start, start, 0, 0);
        }
        char c = src.charAt(pos);
        if (c == '\n') {
            pos++;
            return new Tok(K.EOL, "", start, start, 0, 0);
        }
        if (c == ':' && pos + 1 < limit && isAlnum(src.charAt(pos + 1))) {
            pos++;
            while (pos < limit && isAlnum(src.charAt(pos))) {
                pos++;
            }
            return new Tok(K.VAR, src.substring(start + 1, pos), start, pos, 0, 0);
        }
        if (isDigit(c) || (c == '.' && pos + 1 < limit && isDigit(src.charAt(pos + 1)))) {
            return number(start);
        }
        if (isAlpha(c)) {
            while (pos < limit && isAlnum(src.charAt(pos))) {
                pos++;
            }
            String word = src.substring(start, pos);
            K k = switch (word.toLowerCase(Locale.ROOT)) {
                case "and" -> K.AND;
                case "or" -> K.OR;
                case "not" -> K.NOT;
                case "is" -> K.IS;
                case "isnull" -> K.ISNULL;
                case "notnull" -> K.NOTNULL;
                case "true" -> K.TRUE;
                case "false" -> K.FALSE;
                case "null" -> K.NULL;
                case "case" -> K.CASE;
                case "when" -> K.WHEN;
                case "then" -> K.THEN;
                case "else" -> K.ELSE;
                case "end" -> K.END;
                default -> K.IDENT;
            };
            return new Tok(k, word, start, pos, 0, 0);
        }
        String two = pos + 1 < limit ? src.substring(pos, pos + 2) : "";
        switch (two) {
            case "<>", "!=", "<=", ">=", "<<", ">>" -> {
                pos += 2;
                return new Tok(K.OP, two.equals("!=") ? "<>" : two, start, pos, 0, 0);
            }
            default -> {
            }
        }
        pos++;
        return switch (c) {
            case '+', '-', '*', '/', '%', '=', '<', '>', '&', '|', '#', '~' ->
                    new Tok(K.OP, String.valueOf(c), start, pos, 0, 0);
            case '(' -> new Tok(K.LPAREN, "(", start, pos, 0, 0);
            case ')' -> new Tok(K.RPAREN, ")", start, pos, 0, 0);
            case ',' -> new Tok(K.COMMA, ",", start, pos, 0, 0);
            default -> throw new ExprSyntaxException("unexpected character", String.valueOf(c), start);
        };
    }

    private Tok number(int start) throws ExprSyntaxException {
        boolean isDouble = false;
        while (pos < limit && isDigit(src.charAt(pos))) {
            pos++;
        }
        if (pos < limit && src.charAt(pos) == '.') {
            isDouble = true;
            pos++;
            while (pos < limit && isDigit(src.charAt(pos))) {
                pos++;
            }
        }
        if (pos < limit && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
            int p = pos + 1;
            if (p < limit && (src.charAt(p) == '+' || src.charAt(p) == '-')) {
                p++;
            }
            if (p < limit && isDigit(src.charAt(p))) {
                while (p < limit && isDigit(src.charAt(p))) {
                    p++;
                }
                pos = p;
                isDouble = true;
            }
        }
        String text = src.substring(start, pos);
        if (!isDouble) {
            // only this exact spelling: pgbench's scanner sees "09223372036854775808" as an overflowing constant
            if (text.equals("9223372036854775808")) {
                return new Tok(K.MAXINT_PLUS_ONE, text, start, pos, 0, 0);
            }
            try {
                return new Tok(K.INT, text, start, pos, Long.parseLong(text), 0);
            } catch (NumberFormatException e) {
                throw new ExprSyntaxException("bigint constant overflow", text, start);
            }
        }
        double d = Double.parseDouble(text);
        if (Double.isInfinite(d) || (d == 0.0 && text.matches("[^eE]*[1-9].*"))
                || (d != 0.0 && Math.abs(d) < Double.MIN_NORMAL) || (d == Double.MIN_NORMAL && tinyForStrtod(text))) {
            throw new ExprSyntaxException("double constant overflow", text, start);
        }
        return new Tok(K.DOUBLE, text, start, pos, 0, d);
    }

    /**
     * glibc's strtod sets ERANGE when the value, rounded to 53 bits with an unbounded exponent, is below
     * the smallest normal double; just below it a value still rounds up to that double in Java.
     */
    public static boolean tinyForStrtod(String text) {
        java.math.BigDecimal minNormal = new java.math.BigDecimal(Double.MIN_NORMAL);
        // 2^-1076 is below the smallest double: a quarter of Double.MIN_VALUE (2^-1074), exactly
        java.math.BigDecimal halfUlpBelow = new java.math.BigDecimal(Double.MIN_VALUE).divide(java.math.BigDecimal.valueOf(4));
        return new java.math.BigDecimal(text).compareTo(minNormal.subtract(halfUlpBelow)) < 0;
    }

    // ---------------------------------------------------------------- parser

    private static final int P_OR = 1;
    private static final int P_AND = 2;
    private static final int P_NOT = 3;
    private static final int P_IS = 4;
    private static final int P_CMP = 5;
    private static final int P_BIT = 6;
    private static final int P_ADD = 7;
    private static final int P_MUL = 8;
    private static final int P_UNARY = 9;

    private ExprSyntaxException syntaxError() {
        return new ExprSyntaxException("syntax error", null, tok.start);
    }

    private static int binaryPrec(Tok t) {
        if (t.kind == K.OR) {
            return P_OR;
        }
        if (t.kind == K.AND) {
            return P_AND;
        }
        if (t.kind == K.IS || t.kind == K.ISNULL || t.kind == K.NOTNULL) {
            return P_IS;
        }
        if (t.kind != K.OP) {
            return -1;
        }
        return switch (t.text) {
            case "=", "<>", "<", "<=", ">", ">=" -> P_CMP;
            case "|", "#", "&", "<<", ">>" -> P_BIT;
            case "+", "-" -> P_ADD;
            case "*", "/", "%" -> P_MUL;
            default -> -1;
        };
    }

    private static Expr op(Fn fn, Expr a, Expr b) {
        return new Expr.Call(fn, List.of(a, b));
    }

    private static Expr not(Expr a) {
        return new Expr.Call(Fn.NOT, List.of(a));
    }

    private Expr expr(int minPrec, int base) throws ExprSyntaxException {
        Expr left = prefix(base);
        int lastNonAssoc = -1;
        while (true) {
            int prec = binaryPrec(tok);
            if (prec < 0 || prec < minPrec) {
                return left;
            }
            if (prec == lastNonAssoc) {
                throw syntaxError();
            }
            Tok t = tok;
            shifted(base + 2, t.start);
            advance();
            if (prec == P_IS) {
                // "x IS NULL IS NULL" parses in pgbench: the IS forms end in a keyword, so bison never has to
                // choose between them and nonassoc never applies; a comparison may follow again too.
                lastNonAssoc = -1;
                if (t.kind == K.ISNULL) {
                    left = op(Fn.IS, left, new Expr.Const(Value.NULL));
                } else if (t.kind == K.NOTNULL) {
                    left = not(op(Fn.IS, left, new Expr.Const(Value.NULL)));
                } else {
                    boolean negate = false;
                    if (tok.kind == K.NOT) {
                        negate = true;
                        shifted(base + 3, tok.start);
                        advance();
                    }
                    Value v = switch (tok.kind) {
                        case NULL -> Value.NULL;
                        case TRUE -> Value.TRUE;
                        case FALSE -> Value.FALSE;
                        default -> throw syntaxError();
                    };
                    shifted(base + (negate ? 4 : 3), tok.start);
                    advance();
                    left = op(Fn.IS, left, new Expr.Const(v));
                    if (negate) {
                        left = not(left);
                    }
                }
                continue;
            }
            Expr right = expr(prec + 1, base + 2);
            if (prec == P_CMP) {
                lastNonAssoc = P_CMP;
            }
            left = switch (t.kind) {
                case OR -> op(Fn.OR, left, right);
                case AND -> op(Fn.AND, left, right);
                default -> switch (t.text) {
                    case "=" -> op(Fn.EQ, left, right);
                    case "<>" -> op(Fn.NE, left, right);
                    case "<" -> op(Fn.LT, left, right);
                    case "<=" -> op(Fn.LE, left, right);
                    case ">" -> op(Fn.LT, right, left);
                    case ">=" -> op(Fn.LE, right, left);
                    case "|" -> op(Fn.BITOR, left, right);
                    case "#" -> op(Fn.BITXOR, left, right);
                    case "&" -> op(Fn.BITAND, left, right);
                    case "<<" -> op(Fn.LSHIFT, left, right);
                    case ">>" -> op(Fn.RSHIFT, left, right);
                    case "+" -> op(Fn.ADD, left, right);
                    case "-" -> op(Fn.SUB, left, right);
                    case "*" -> op(Fn.MUL, left, right);
                    case "/" -> op(Fn.DIV, left, right);
                    default -> op(Fn.MOD, left, right);
                };
            };
        }
    }

    private Expr prefix(int base) throws ExprSyntaxException {
        Tok t = tok;
        boolean startsOperand = switch (t.kind) {
            case OP -> t.text.equals("+") || t.text.equals("-") || t.text.equals("~");
            case NOT, LPAREN, INT, DOUBLE, TRUE, FALSE, NULL, VAR -> true;
            default -> false; // CASE and function names check their own shift
        };
        if (startsOperand) {
            shifted(base + 1, t.start);
        }
        switch (t.kind) {
            case OP:
                switch (t.text) {
                    case "+":
                        advance();
                        return expr(P_UNARY, base + 1);
                    case "-":
                        advance();
                        if (tok.kind == K.MAXINT_PLUS_ONE) {
                            shifted(base + 2, tok.start);
                            advance();
                            return new Expr.Const(Value.ofInt(Long.MIN_VALUE));
                        }
                        return op(Fn.SUB, new Expr.Const(Value.ofInt(0)), expr(P_UNARY, base + 1));
                    case "~":
                        advance();
                        // '~' has the bitwise operators' precedence in pgbench's grammar, not UNARY's.
                        return op(Fn.BITXOR, new Expr.Const(Value.ofInt(-1)), expr(P_BIT + 1, base + 1));
                    default:
                        throw syntaxError();
                }
            case NOT:
                advance();
                return not(expr(P_NOT, base + 1));
            case LPAREN: {
                advance();
                Expr e = expr(0, base + 1);
                expect(K.RPAREN, base + 3);
                return e;
            }
            case INT:
                advance();
                return new Expr.Const(Value.ofInt(t.ival));
            case DOUBLE:
                advance();
                return new Expr.Const(Value.ofDouble(t.dval));
            case TRUE:
                advance();
                return new Expr.Const(Value.TRUE);
            case FALSE:
                advance();
                return new Expr.Const(Value.FALSE);
            case NULL:
                advance();
                return new Expr.Const(Value.NULL);
            case VAR:
                advance();
                return new Expr.Var(t.text);
            case CASE:
                return caseExpr(base);
            case IDENT:
                return call(base);
            default:
                throw syntaxError();
        }
    }

    /** Shifts the expected token, which makes {@code symbols} on bison's stack. */
    private void expect(K kind, int symbols) throws ExprSyntaxException {
        if (tok.kind != kind) {
            throw syntaxError();
        }
        shifted(symbols, tok.start);
        advance();
    }

    private Expr caseExpr(int base) throws ExprSyntaxException {
        shifted(base + 1, tok.start);
        advance();
        List<Expr> args = new ArrayList<>();
        if (tok.kind != K.WHEN) {
            throw syntaxError();
        }
        // below each WHEN: CASE, and from the second one on the when_then_list so far
        int below = base + 1;
        while (tok.kind == K.WHEN) {
            expect(K.WHEN, below + 1);
            args.add(expr(0, below + 1));
            expect(K.THEN, below + 3);
            args.add(expr(0, below + 3));
            below = base + 2;
        }
        boolean hasElse = tok.kind == K.ELSE;
        if (hasElse) {
            expect(K.ELSE, base + 3);
            args.add(expr(0, base + 3));
        } else {
            args.add(new Expr.Const(Value.NULL));
        }
        expect(K.END, base + (hasElse ? 5 : 3));
        return new Expr.Call(Fn.CASE, args);
    }

    private Expr call(int base) throws ExprSyntaxException {
        Tok name = tok;
        shifted(base + 1, name.start);
        Fn fn = Fn.byName(name.text);
        if (fn == null || fn.sqlName.startsWith("!") || fn.nargs == 2 && !Character.isLetter(fn.sqlName.charAt(0))) {
            throw new ExprSyntaxException("unexpected function name", name.text, name.start);
        }
        advance();
        expect(K.LPAREN, base + 2);
        List<Expr> args = new ArrayList<>();
        if (tok.kind != K.RPAREN) {
            // pgbench's elist may begin empty ("elist: /* empty */ | expr | elist ',' expr"): "f(, a, b)" is f(a, b)
            if (tok.kind != K.COMMA) {
                args.add(expr(0, base + 2));
            }
            while (tok.kind == K.COMMA) {
                // function ( elist ,
                expect(K.COMMA, base + 4);
                args.add(expr(0, base + 4));
            }
        }
        if (tok.kind != K.RPAREN) {
            // e.g. "random(1 :aid_max)": a missing comma between arguments
            throw new ExprSyntaxException("syntax error", null, tok.start,
                    "',' or ')' after argument " + args.size() + " of " + fn.sqlName + "()");
        }
        shifted(base + 4, tok.start);
        int len = args.size();
        switch (fn.nargs) {
            case -1:
                if (len == 0) {
                    throw new ExprSyntaxException("at least one argument expected", fn.sqlName, tok.start);
                }
                break;
            case -3:
                if (len < 1 || len > 2) {
                    throw new ExprSyntaxException("unexpected number of arguments", fn.sqlName, tok.start);
                }
                if (len == 1) {
                    args.add(new Expr.Var("default_seed"));
                }
                break;
            case -4:
                if (len < 2 || len > 3) {
                    throw new ExprSyntaxException("unexpected number of arguments", fn.sqlName, tok.start);
                }
                if (len == 2) {
                    args.add(new Expr.Var("default_seed"));
                }
                break;
            default:
                if (fn.nargs != len) {
                    throw new ExprSyntaxException("unexpected number of arguments", fn.sqlName, tok.start);
                }
        }
        advance();
        return new Expr.Call(fn, args);
    }
}
