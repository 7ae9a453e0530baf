/**
 * PostgreSQL targets. A caller needs {@link dev.kensho.core.server.TargetSpec} (embedded, local binaries, remote,
 * container), the {@link dev.kensho.core.server.Target} it opens, that target's
 * {@link dev.kensho.core.server.ServerControl} ({@code apply}, {@code restart}) with its
 * {@link dev.kensho.core.server.SettingsOutcome}, and {@link dev.kensho.core.server.ServerVersion} /
 * {@link dev.kensho.core.server.PgRelease} to ask what runs.
 *
 * <p>The servers themselves (managed, remote, container, the embedded binaries' download) are package-private.
 * {@code KenshoHome}, {@code EmbeddedBinaries}, {@code ServerActions}, {@code UnixSocketFactory} and {@code WireLogin}
 * are public for Kensho's other modules (the SSB cache, the wire engine, the CLI), not as API: they may change.
 */
package dev.kensho.core.server;
