package dev.kensho.core.result;

import java.nio.file.Path;
import java.util.List;

/** A finished (or interrupted) run as read back from its directory: what reports and comparisons use. */
public record RunResults(Path directory, RunInfo info, List<Trial> trials) {
}
