package dev.kensho.scan.cache;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The operating system's page cache on this host: dropped (sync, then 3 into
 * /proc/sys/vm/drop_caches) for cold cells, as the study cleared the OS file cache before each
 * measurement. Needs root on Linux; containers often refuse it even to root.
 */
public final class PageCache {
    private static final Path DROP = Path.of("/proc/sys/vm/drop_caches");
    private static final Path MEMINFO = Path.of("/proc/meminfo");
    /** Cached memory above which a working drop visibly shrinks the page cache. */
    private static final long NOTICEABLE_KB = 256 * 1024;

    private PageCache() {}

    /**
     * What a drop did.
     *
     * @param dropped       true when the kernel accepted the request
     * @param reason        why not, when not dropped
     * @param cachedKbBefore file pages cached before (/proc/meminfo Active(file) + Inactive(file); -1 unknown)
     * @param cachedKbAfter  and after: a real drop makes it fall
     */
    public record Drop(boolean dropped, String reason, long cachedKbBefore, long cachedKbAfter) { }

    public static Drop drop() {
        long before = cachedKb();
        long droppableBefore = droppableAtLeastKb();
        if (!Files.exists(DROP)) return new Drop(false, "no " + DROP + " (not Linux)", before, before);
        try {
            new ProcessBuilder("sync").inheritIO().start().waitFor();
        } catch (IOException e) {
            // the write below still drops clean pages; dirty ones just stay
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Drop(false, "interrupted", before, before);
        }
        try {
            Files.writeString(DROP, "3\n", StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
        } catch (IOException | SecurityException e) {
            return new Drop(false, "cannot write " + DROP + " (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); needs root outside a restricted container",
                    before, cachedKb());
        }
        long after = cachedKb();
        // Some sandboxes accept the write and do nothing: with plenty surely droppable before, it must fall. Judged on
        // a lower bound, not on the file pages recorded: programs' mapped files are among those and stay.
        if (droppableBefore > NOTICEABLE_KB && droppableAtLeastKb() >= droppableBefore * 0.9) {
            return new Drop(false, "the kernel accepted the drop_caches write but the page cache did not shrink ("
                    + before / 1024 + " MB → " + after / 1024 + " MB cached)", before, after);
        }
        return new Drop(true, "", before, after);
    }

    /** Why a drop will not work here, or null when a trial drop succeeded. */
    public static String unavailableReason() {
        Drop d = drop();
        return d.dropped() ? null : d.reason();
    }

    /**
     * File pages a drop surely removes, at least: "Cached" minus "Shmem" (shared memory such as shared_buffers) and
     * "Mapped" (pages mapped by running programs, mapped shared memory among them, so often below the truth or 0).
     */
    static long droppableAtLeastKb() {
        long cached = -1;
        long shmem = 0;
        long mapped = 0;
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                if (line.startsWith("Cached:")) cached = Long.parseLong(line.replaceAll("[^0-9]", ""));
                if (line.startsWith("Shmem:")) shmem = Long.parseLong(line.replaceAll("[^0-9]", ""));
                if (line.startsWith("Mapped:")) mapped = Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return cached < 0 ? -1 : Math.max(0, cached - shmem - mapped);
    }

    /**
     * File pages in the page cache: the kernel's file LRU lists, Active(file) + Inactive(file). Shared memory such as
     * shared_buffers is on the anonymous lists, so it is not counted; "Cached − Shmem − Mapped" counted a mapped
     * shared_buffers twice (it is in both), came out below zero and recorded 0 before every drop.
     */
    static long cachedKb() {
        long active = -1;
        long inactive = -1;
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                if (line.startsWith("Active(file):")) active = Long.parseLong(line.replaceAll("[^0-9]", ""));
                if (line.startsWith("Inactive(file):")) inactive = Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return active < 0 || inactive < 0 ? -1 : active + inactive;
    }
}
