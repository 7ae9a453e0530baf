package dev.kensho.core.server;

/** A JVM that starts the embedded server, prints its data directory and waits to be killed (see OrphanReapingTest). */
public final class HoldsAServer {
    private HoldsAServer() {}

    public static void main(String[] args) throws Exception {
        Target pg = new TargetSpec().open();
        System.out.println(pg.control().dataDirectory().orElseThrow());
        System.out.flush();
        Thread.sleep(120_000);
        pg.close();
    }
}
