package dev.kensho.core;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Masks credentials wherever text leaves the process: output, logs, run.json, reports. */
public final class Credentials {
    private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(password=)[^&;\\s]*");
    private static final Pattern USERINFO = Pattern.compile("(//[^/:@\\s]+:)[^@/\\s]*@");
    /** user:password@host without the // (a host name pgjdbc took whole, in its own messages). */
    private static final Pattern BARE_USERINFO = Pattern.compile("(?<![/\\w.-])([\\w.-]+:)[^@/\\s:]+@(?=[\\w.\\[-])");
    private static final Pattern OPTION = Pattern.compile("(?i)^(--password|--pass|-W)(=)(.*)$");

    private Credentials() {}

    /** Masks password=… parameters and user:password@ userinfo in a URL or free text. */
    public static String mask(String text) {
        if (text == null) return null;
        String s = URL_PASSWORD.matcher(text).replaceAll("$1****");
        s = USERINFO.matcher(s).replaceAll("$1****@");
        return BARE_USERINFO.matcher(s).replaceAll("$1****@");
    }

    /** Masks a command line: the value after a password option, and URLs. */
    public static String[] maskArgs(String[] args) {
        String[] out = new String[args.length];
        boolean nextIsSecret = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (nextIsSecret) {
                out[i] = "****";
                nextIsSecret = false;
                continue;
            }
            Matcher m = OPTION.matcher(a);
            if (m.matches()) {
                out[i] = m.group(1) + "=****";
            } else {
                if (a.equalsIgnoreCase("--password")) nextIsSecret = true;
                out[i] = mask(a);
            }
        }
        return out;
    }
}
