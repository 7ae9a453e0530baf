package dev.kensho.core.server;

/** A JVM that starts the embedded server, prints its data directory and waits to be killed (see OrphanReapingTest). */
public final class HoldsAServer {
    private HoldsAServer() {}

    /** @param args optionally a directory: a tablespace is made in a new kensho-… directory under it, with a table in it */
    public static void main(String[] args) throws Exception {
        Target pg = new TargetSpec().open();
        if (args.length > 0) {
            java.nio.file.Path location = java.nio.file.Files.createTempDirectory(java.nio.file.Path.of(args[0]), KenshoHome.OWN_TABLESPACE_PREFIX);
            java.nio.file.Files.setOwner(location, java.nio.file.Files.getOwner(pg.control().dataDirectory().orElseThrow()));
            try (java.sql.Connection c = pg.connect(); java.sql.Statement s = c.createStatement()) {
                s.execute("CREATE TABLESPACE kx_held LOCATION " + SqlIdentifier.literal(location.toString()));
                s.execute("CREATE TABLE kx_held_t TABLESPACE kx_held AS SELECT g FROM generate_series(1, 1000) g");
            }
        }
        System.out.println(pg.control().dataDirectory().orElseThrow());
        System.out.flush();
        Thread.sleep(120_000);
        pg.close();
    }
}
