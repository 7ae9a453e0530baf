package dev.kensho.pgbench.sweep;

import dev.kensho.core.KenshoException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * --threads of a sweep: a number ("4"), "clients", or "clients" with one operator and a number
 * ("clients/2", "clients*2", "clients-1", "clients+1"). The result is kept within 1..clients, since
 * a pgbench thread needs at least one client.
 */
public final class ThreadsExpression {
    private static final Pattern FORM = Pattern.compile("\\s*(?:(\\d+)|clients\\s*(?:([*/+-])\\s*(\\d+))?)\\s*");
    private final String text;
    private final Integer constant;
    private final char op;
    private final int operand;

    private ThreadsExpression(String text, Integer constant, char op, int operand) {
        this.text = text;
        this.constant = constant;
        this.op = op;
        this.operand = operand;
    }

    public static ThreadsExpression parse(String s) {
        Matcher m = FORM.matcher(s);
        if (!m.matches()) {
            throw KenshoException.usage("--threads \"" + s + "\": expected a number, clients, or clients/N, clients*N, clients-N, clients+N");
        }
        if (m.group(1) != null) {
            int n = number(m.group(1), "--threads " + s.strip() + ": must be at most " + Integer.MAX_VALUE);
            // as pgbench's -j 0; an expression below 1 for a small count still means one thread (clients/2 at 1 client)
            if (n < 1) throw KenshoException.usage("--threads " + s.strip() + ": must be at least 1");
            return new ThreadsExpression(s, n, ' ', 0);
        }
        if (m.group(2) == null) return new ThreadsExpression(s, null, ' ', 0);
        int n = number(m.group(3), "--threads \"" + s + "\": " + m.group(3) + " must be at most " + Integer.MAX_VALUE);
        if (m.group(2).equals("/") && n == 0) throw KenshoException.usage("--threads \"" + s + "\": division by zero");
        return new ThreadsExpression(s, null, m.group(2).charAt(0), n);
    }

    /** The digits as an int; past int a usage error (the pattern admits any number of digits). */
    private static int number(String digits, String tooLarge) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw KenshoException.usage(tooLarge);
        }
    }

    public int threadsFor(int clients) {
        long t;
        if (constant != null) t = constant;
        else t = switch (op) {
            case '/' -> clients / operand;
            case '*' -> (long) clients * operand;
            case '-' -> clients - operand;
            case '+' -> clients + operand;
            default -> clients;
        };
        return (int) Math.max(1, Math.min(clients, t));
    }

    @Override
    public String toString() {
        return text.strip();
    }
}
