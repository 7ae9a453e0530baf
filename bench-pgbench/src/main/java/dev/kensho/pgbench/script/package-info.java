/**
 * pgbench's script language: parsing, expression evaluation, pgbench's random generator, and running one
 * transaction of one client over JDBC. The driver ({@code dev.kensho.pgbench.run}) owns threads, clients,
 * rate limiting, logs and reports, and calls:
 *
 * <pre>{@code
 * List<Script> scripts = List.of(Script.fromSpec("-b select-only@2"), Script.fromSpec("-f my.sql@1"));
 * Script.checkList(scripts);                                  // 128 scripts max, total weight > 0
 * long seed = PgbenchRandom.parseSeed("5432");               // --random-seed (null = "time")
 * Variables base = new Variables(); base.define("name=value"); // -D
 * PgbenchRandom.Seeds seeds = PgbenchRandom.Seeds.of(seed, clients, threads, !base.contains("default_seed"));
 * long scale = anyBuiltin ? Variables.readScale(conn) : optionS; // pgbench's rule
 * // per client i (thread t = the one Seeds.clientsOfThread deals it to):
 * Variables v = base.copy(); v.standard(scale, i, seed, seeds.defaultSeed());
 * ClientScriptRunner r = new ClientScriptRunner(scripts, i, v, seeds.clients()[i], mode, Options.defaults());
 * TransactionOutcome o = r.runTransaction(conn, seeds.choose()[t]);   // or Script.choose + runScript
 * while (o.retryable() && tries++ < maxTries) o = r.retry(conn, o);
 * // per-command latency (-r): r.commandNanos(script), r.commandCounts(script)
 * // connections: props = mode.connectionProperties() (preferQueryMode, prepareThreshold, stringtype)
 * }</pre>
 *
 * <h2>Fidelity to pgbench 15 (checked side by side with the C binary in the tests)</h2>
 * <ul>
 * <li>Expressions: pgbench's grammar, precedences, int/double/boolean/NULL typing, lazy AND/OR/CASE, NULL
 *     propagation, overflow and division errors, every builtin function with its argument checks; debug()
 *     prints the same text ({@code %.15g} doubles, PostgreSQL's NaN/Infinity spelling).</li>
 * <li>Random: xoroshiro128** with splitmix64 seeding; startup seeding order (clients' states, then
 *     :default_seed unless -D defines it, then per thread choose/throttle/sample states); uniform, exponential, gaussian, zipfian,
 *     permute, hash/hash_murmur2/hash_fnv1a are bit-exact.</li>
 * <li>SQL splitting: psql's lexer rules (quotes, E'' strings, dollar quotes, nested comments, parentheses,
 *     {@code \;} compound queries); variables as pgbench substitutes them (text in simple mode, parameters
 *     $1..$n bound as untyped text in extended/prepared mode; undefined variables stay ":name" in simple mode
 *     and bind NULL otherwise; psql's {@code :'name'} and {@code :"name"} are not substituted, as in pgbench).</li>
 * </ul>
 *
 * <h2>Deliberate differences</h2>
 * <ul>
 * <li>{@code \setrandom} (removed in 9.6, used by study 000) is accepted and run as {@code \set v random(...)},
 *     {@code random_gaussian} or {@code random_exponential}; one warning per process.</li>
 * <li>Pipelines ({@code \startpipeline}, {@code \syncpipeline}, {@code \endpipeline}) run on the wire engine only,
 *     with pgbench 17's rules (no \gset/\aset inside, results read at \endpipeline, prepared mode prepares
 *     the pipeline's statements before entering it); pgjdbc has no pipeline mode, so a run on it refuses such a
 *     script before it starts. In simple mode, where pgbench aborts the client at \startpipeline, Kensho
 *     refuses the script before the run.</li>
 * <li>{@code \sleep} is performed by the runner (by {@link dev.kensho.pgbench.script.ClientScriptRunner.Sleeper},
 *     replaceable by the driver) and counts in the transaction's latency, as in pgbench.</li>
 * <li>Errors are one line, {@code file:line:column: message}; the column is the start of the offending token
 *     (pgbench puts its caret under the token's last character). The line is pgbench's: a meta-command's first,
 *     also for an error on one of its continuation lines, the column then counted on through them from that
 *     line's start (pgbench counts from the backslash); the message names the continuation line and column.</li>
 * <li>A compound {@code \;} query (two statements or more, not counting blanks and comments) is refused before
 *     running in extended/prepared mode (pgbench fails on it at run time with the server's "cannot insert multiple
 *     commands into a prepared statement"). So is, there, a {@code :name} inside a string, quoted name or comment,
 *     which pgbench makes a parameter the statement never uses (its run fails on the server's error). Refused before
 *     the run only where every transaction reaches the command ({@link dev.kensho.pgbench.script.Script#alwaysReached}):
 *     inside an \if block or in a script of weight 0 the client that reaches it aborts, as pgbench's.</li>
 * <li>{@code abs()} of a boolean fails with "cannot coerce boolean to double"; pgbench 15 (through 17) reads the
 *     boolean's storage as a double and returns whatever bits are there (4.9e-324 for true, often stack garbage).</li>
 * <li>Not modelled: the C library's rounding of {@code exp()}, {@code ln()} and {@code pow()}. Kensho uses Java's
 *     {@code Math}, which disagrees with glibc 2.36 in the last bit for about 1 call in 700 to 2000 ({@code pow(10, 23)}
 *     is 1.0000000000000001e23 in glibc, one bit below in Java; glibc itself is not correctly rounded there); the
 *     {@code %.15g} debug() text hides the bit, but a comparison or a difference of such results shows it.</li>
 * <li>A variable holding "" (a \gset or \aset of NULL sets it so) used in an expression aborts the client as in
 *     pgbench, which prints the abort line alone; Kensho prints {@code malformed variable "x" value: ""} before it,
 *     as pgbench does for any other value it cannot read.</li>
 * <li>A NUL byte in a script file is refused with its line and column; pgbench reads the file as a C string and
 *     silently runs only what comes before the first one.</li>
 * <li>Not modelled: pgjdbc's JDBC escapes ({@code {fn ...}}) still apply to extended/prepared statements.</li>
 * </ul>
 */
package dev.kensho.pgbench.script;
