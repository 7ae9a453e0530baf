package dev.kensho.core.env;

import dev.kensho.core.KenshoException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The /proc (and /sys/block) files of the host a server runs on: read directly when the server shares
 * this host, or through the server with pg_read_file() and pg_ls_dir() when it does not. The studies
 * watched the database host's CPUs, disks and network (mpstat, sar) from a separate client machine;
 * reading the files through the server needs no agent there, only a role that may read server files
 * (superuser or pg_read_server_files). Nothing is written and no setting is changed.
 */
public abstract class ProcFiles {
    /** What is read, for the results: "this host" or "the server's host, through pg_read_file()". */
    public abstract String source();

    /** The whole file, e.g. "/proc/stat". */
    public abstract String read(String path) throws IOException;

    /** Names in a directory, e.g. the whole disks in "/sys/block". */
    public abstract List<String> list(String dir) throws IOException;

    /** This host's files; empty where there is no /proc (not Linux). */
    public static java.util.Optional<ProcFiles> local() {
        return Files.isReadable(Path.of("/proc/stat")) ? java.util.Optional.of(new Local()) : java.util.Optional.empty();
    }

    /**
     * The server's host's files through this connection (which the caller keeps and closes), or the reason
     * they cannot be read: a role without the right, a server on another OS, a version whose pg_read_file
     * reads no /proc file (they report a size of 0).
     */
    public static Reading throughServer(Connection c) {
        ProcFiles p = new ThroughServer(c);
        try {
            String stat = p.read("/proc/stat");
            if (!stat.startsWith("cpu")) return new Reading(null, "the server's /proc/stat reads empty");
            return new Reading(p, null);
        } catch (IOException e) {
            return new Reading(null, e.getMessage() + who(c, e));
        }
    }

    /** For a refusal, who may read the files: the server's "permission denied for function pg_read_file" says not. */
    private static String who(Connection c, IOException e) {
        if (!(e.getCause() instanceof SQLException q) || !"42501".equals(q.getSQLState())) return "";
        try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT current_user")) {
            rs.next();
            return c.getMetaData().getDatabaseMajorVersion() >= 11
                    ? " (a superuser or a member of pg_read_server_files may: GRANT pg_read_server_files TO " + dev.kensho.core.server.SqlIdentifier.quoteIdent(rs.getString(1)) + ")"
                    : " (only a superuser may before PostgreSQL 11)";
        } catch (SQLException gone) {
            return "";
        }
    }

    /** Either the files or why not. */
    public record Reading(ProcFiles files, String unavailable) {}

    private static final class Local extends ProcFiles {
        @Override public String source() { return "this host"; }

        @Override
        public String read(String path) throws IOException {
            return Files.readString(Path.of(path));
        }

        @Override
        public List<String> list(String dir) throws IOException {
            try (Stream<Path> s = Files.list(Path.of(dir))) {
                return s.map(x -> x.getFileName().toString()).sorted().toList();
            }
        }
    }

    private static final class ThroughServer extends ProcFiles {
        private final Connection c;

        ThroughServer(Connection c) {
            this.c = c;
        }

        @Override public String source() { return "the server's host, through pg_read_file()"; }

        @Override
        public String read(String path) throws IOException {
            try (PreparedStatement s = c.prepareStatement("SELECT pg_read_file(?)")) {
                s.setString(1, path);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    String text = rs.getString(1);
                    return text == null ? "" : text;
                }
            } catch (SQLException e) {
                throw new IOException(path + " through the server: " + KenshoException.firstLine(e), e);
            }
        }

        @Override
        public List<String> list(String dir) throws IOException {
            try (PreparedStatement s = c.prepareStatement("SELECT pg_ls_dir(?) ORDER BY 1")) {
                s.setString(1, dir);
                List<String> out = new ArrayList<>();
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) out.add(rs.getString(1));
                }
                return out;
            } catch (SQLException e) {
                throw new IOException(dir + " through the server: " + KenshoException.firstLine(e), e);
            }
        }
    }
}
