package dev.kensho.scan.table;

import dev.kensho.core.KenshoException;
import dev.kensho.core.server.KenshoHome;
import dev.kensho.core.server.Target;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The tablespace the scan tables live in, to compare storage media as the study compared HDD and SSD. */
public final class Tablespace {
    public static final String NAME = "kensho_scan";

    private Tablespace() {}

    /**
     * --tablespace-dir on a managed server: CREATE TABLESPACE kensho_scan in a new directory
     * DIR/kensho-&lt;random&gt;, that directory (not DIR) given to the server's OS user (the owner of the data directory; on
     * root that is the unprivileged user the server runs as). A directory per cluster lets a kept
     * data directory find its tablespace again (the server knows where it is) while a fresh server
     * never trips over the files of an earlier, deleted one, nor of a concurrent one. Not named by
     * the system identifier: servers copied from one initdb template share it.
     */
    public static String create(Target target, Path dir) {
        if (!target.kind().managed()) {
            throw KenshoException.usage("--tablespace-dir needs a managed server (embedded or --pg-bin); "
                    + "for --url create the tablespace yourself and pass --tablespace NAME");
        }
        Path data = target.control().dataDirectory().orElseThrow();
        try (Connection c = target.connect()) {
            Path parent = dir.toAbsolutePath().normalize();
            Optional<Path> existing = location(c, NAME);
            if (existing.isPresent()) {
                if (parent.equals(existing.get().getParent()) && existing.get().getFileName().toString()
                        .startsWith(KenshoHome.OWN_TABLESPACE_PREFIX)) return NAME;
                throw KenshoException.usage("tablespace " + NAME + " already exists at " + existing.get()
                        + ", not under --tablespace-dir " + dir);
            }
            Files.createDirectories(parent);
            Path location = Files.createTempDirectory(parent, KenshoHome.OWN_TABLESPACE_PREFIX);
            try {
                // the new directory only: DIR itself (a shared /var/tmp, a mount point) stays its owner's; given to the
                // server's user, a sticky /tmp let that user remove anyone's files in it
                UserPrincipal owner = Files.getOwner(data);
                Files.setOwner(location, owner);
                checkReachable(location);
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLESPACE " + NAME + " LOCATION " + dev.kensho.core.server.SqlIdentifier.literal(location.toString()));
                }
                return NAME;
            } catch (IOException | SQLException | RuntimeException e) {
                Files.deleteIfExists(location);   // still empty: the next try makes another
                throw e;
            }
        } catch (IOException e) {
            // an AccessDeniedException's message is only the path
            throw KenshoException.usage("--tablespace-dir " + dir + ": cannot use it (" + KenshoException.ioReason(e) + ")");
        } catch (SQLException e) {
            throw KenshoException.usage("--tablespace-dir " + dir + ": " + KenshoException.firstLine(e));
        }
    }

    /**
     * A managed server whose data directory is a throw-away instance (no --keep-data) loses its
     * data on close but not the files in an outside tablespace: drop the scan tables and the
     * tablespace so a 10-million-row run leaves no gigabytes behind.
     */
    public static void dropWithThrowAwayServer(Target target, List<String> tables) {
        Optional<Path> data = target.control().dataDirectory();
        if (!target.kind().managed() || data.isEmpty()
                || !data.get().startsWith(KenshoHome.dir().resolve("instances"))) {
            return;
        }
        try (Connection c = target.connect(); Statement s = c.createStatement()) {
            Optional<Path> location = location(c, NAME);
            for (String t : tables) s.execute("DROP TABLE IF EXISTS " + t);
            s.execute("DROP TABLESPACE IF EXISTS " + NAME);
            if (location.isPresent() && KenshoHome.isOwnTablespaceLocation(location.get())) {
                try {
                    Files.deleteIfExists(location.get());   // the directory create() made, empty once dropped
                } catch (IOException notEmpty) {
                    // someone else's files in it: left
                }
            }
        } catch (SQLException e) {
            System.err.println("warning: could not drop tablespace " + NAME + ": " + KenshoException.firstLine(e));
        }
    }

    /** --tablespace NAME: must exist and be usable; returns its directory when the server reports one. */
    public static Optional<Path> require(Target target, String name) {
        try (Connection c = target.connect()) {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT has_tablespace_privilege(oid, 'CREATE') FROM pg_tablespace WHERE spcname = ?")) {
                ps.setString(1, name);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) throw KenshoException.usage("--tablespace " + name + ": no such tablespace on the server");
                    if (!rs.getBoolean(1)) throw KenshoException.usage("--tablespace " + name + ": no CREATE privilege on it");
                }
            }
            return location(c, name);
        } catch (SQLException e) {
            throw KenshoException.target("cannot read pg_tablespace: " + KenshoException.firstLine(e), e);
        }
    }

    /** The directory of a tablespace (empty for pg_default or when it does not exist). */
    public static Optional<Path> location(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_tablespace_location(oid) FROM pg_tablespace WHERE spcname = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return Optional.empty();
                String loc = rs.getString(1);
                return loc == null || loc.isEmpty() ? Optional.empty() : Optional.of(Path.of(loc));
            }
        }
    }

    /** The server user must be able to enter every parent directory. */
    private static void checkReachable(Path dir) throws IOException {
        List<Path> blocked = new ArrayList<>();
        for (Path p = dir.getParent(); p != null; p = p.getParent()) {
            try {
                if (!Files.getPosixFilePermissions(p).contains(java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE)
                        && !Files.getOwner(p).equals(Files.getOwner(dir))) {
                    blocked.add(p);
                }
            } catch (UnsupportedOperationException e) {
                return;
            }
        }
        if (!blocked.isEmpty()) {
            // DIR itself is not given away (a shared /var/tmp would be): a private one needs its others' x bit
            throw new IOException("the server's OS user " + Files.getOwner(dir).getName() + " cannot enter " + blocked.get(0)
                    + " (chmod o+x " + blocked.get(0) + ", or choose a directory it can enter, e.g. one under /var/tmp)");
        }
    }

}
