package io.github.limiter.redis;

import io.github.limiter.Algorithm;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Lua scripts, composed once from the {@code lua/} resources. Each algorithm has one source,
 * {@code <name>.lua}: named sections of straight-line code ({@code --@ load}, {@code --@ admit},
 * ...). The drivers {@code decide.lua}, {@code adjust.lua} and {@code peek.lua} (read only) are
 * templates whose {@code --@ name} lines are replaced by the section of that name, from the
 * algorithm or from the shared ones after {@code prelude.lua}'s opening. A section may splice a
 * shared one at a {@code --+ name} line (the window of the window algorithms, the parse of a
 * lease's or a hold's record), so that a piece of code shared by several scripts is written once.
 * Splicing text, rather than calling hooks, keeps the script Redis runs as tight as one written out
 * by hand: no per-call closures or tables.
 *
 * <p>A script follows the shape of its policy: a template's blocks {@code --[ feature} ... {@code
 * --]} are kept only in the scripts of policies with that feature. The decide, adjust and peek
 * scripts come in two shapes, with the calendar quotas' code and without it, so that a policy of
 * rates alone runs no quota code (not even the loops that find no quota); the shape without quotas
 * also decides one request under one limit in a single pass.
 *
 * <p>Lease mode's templates, {@code lease.lua} (grant a slice) and {@code release.lua} (give back
 * what is left of it), are spliced from the same sources, for the algorithms whose source defines
 * the lease sections {@code lent} and {@code horizon}: the token bucket and the fixed window. The
 * concurrency limit's source also defines {@code renew}, spliced into {@code renew.lua}: its
 * permits are held under per-node holds that the node holding them renews.
 */
final class Scripts {

  /** One script text and its SHA-1, which is what EVALSHA names. */
  record Script(String name, String source, String sha) {}

  /** A section header line, {@code --@ name}, in a source or a template. */
  private static final Pattern MARKER =
      Pattern.compile("^([ \\t]*)--@ ([a-z]+)[ \\t]*$", Pattern.MULTILINE);

  /**
   * Where a template splices a section ({@code --@ name}) or a section splices a shared one ({@code
   * --+ name}, since {@code --@} would start a section there).
   */
  private static final Pattern SPLICE =
      Pattern.compile("^([ \\t]*)--[@+] ([a-z]+)[ \\t]*$", Pattern.MULTILINE);

  /**
   * A block of a template that only some policies need, {@code --[ feature} to {@code --]}: kept
   * (without those two lines) in the script of a policy that has the feature, left out of the
   * others, so that a policy runs only the code it uses.
   */
  private static final Pattern BLOCK_OF =
      Pattern.compile(
          "^[ \\t]*--\\[ ([a-z]+)[ \\t]*\n(.*?)^[ \\t]*--\\][ \\t]*\n",
          Pattern.MULTILINE | Pattern.DOTALL);

  /** The feature of policies with calendar quotas. */
  static final String QUOTAS = "quotas";

  /**
   * The feature of policies without calendar quotas: decide.lua's single block, the one pass that
   * decides one request under one limit.
   */
  static final String SINGLE = "single";

  /** The decide, adjust and peek scripts of a policy with calendar quotas. */
  private static final Map<Algorithm, Script> DECIDE = new EnumMap<>(Algorithm.class);

  private static final Map<Algorithm, Script> ADJUST = new EnumMap<>(Algorithm.class);
  private static final Map<Algorithm, Script> PEEK = new EnumMap<>(Algorithm.class);

  /** The decide, adjust and peek scripts of a policy without calendar quotas. */
  private static final Map<Algorithm, Script> DECIDE_PLAIN = new EnumMap<>(Algorithm.class);

  private static final Map<Algorithm, Script> ADJUST_PLAIN = new EnumMap<>(Algorithm.class);
  private static final Map<Algorithm, Script> PEEK_PLAIN = new EnumMap<>(Algorithm.class);
  private static final Map<Algorithm, Script> LEASE = new EnumMap<>(Algorithm.class);
  private static final Map<Algorithm, Script> RELEASE = new EnumMap<>(Algorithm.class);
  private static final Map<Algorithm, Script> RENEW = new EnumMap<>(Algorithm.class);
  private static final Script PUBLISH;
  private static final Script VERSIONS;
  private static final Script OVERRIDE;
  private static final Script OVERRIDES;

  /**
   * An upstream's block, {@code block.lua}: of no algorithm, so spliced from the shared sections.
   */
  private static final Script BLOCK;

  /**
   * A global policy's scripts, of no algorithm (docs/multi-region.md): {@code region-lease.lua},
   * {@code region-release.lua}, {@code region-begin.lua}, {@code region-credit.lua} and {@code
   * region-return.lua}, by name.
   */
  private static final Map<String, Script> REGION = new LinkedHashMap<>();

  /** The section of an algorithm whose permits are held while a request runs, on per-node holds. */
  private static final String RENEW_SECTION = "renew";

  /** How deep sections may splice other sections. */
  private static final int MAX_DEPTH = 4;

  /** The sections that an algorithm's source defines if lease mode is proven for it. */
  private static final Set<String> LEASE_SECTIONS = Set.of("lent", "horizon");

  static {
    String prelude = resource("prelude");
    int shared = prelude.indexOf("\n--@ ");
    String opening = shared < 0 ? prelude : prelude.substring(0, shared + 1);
    Map<String, String> common = sections("prelude", prelude);
    String decide = resource("decide");
    String adjust = resource("adjust");
    String peek = resource("peek");
    String lease = resource("lease");
    String release = resource("release");
    String renew = resource("renew");
    PUBLISH = script("publish", opening + resource("publish"));
    VERSIONS = script("versions", resource("versions"));
    OVERRIDE = script("override", opening + resource("override"));
    OVERRIDES = script("overrides", opening + resource("overrides"));
    BLOCK = script("block", opening + splice(resource("block"), common, "block", new HashSet<>()));
    for (String name :
        List.of(
            "region-lease", "region-release", "region-begin", "region-credit", "region-return")) {
      REGION.put(
          name, script(name, opening + splice(resource(name), common, name, new HashSet<>())));
    }
    for (Algorithm algorithm : Algorithm.values()) {
      String name = algorithm.configName();
      Map<String, String> parts = new LinkedHashMap<>(common);
      Map<String, String> own = sections(name, resource(name));
      own.forEach(
          (section, text) -> {
            if (parts.put(section, text) != null) {
              throw new IllegalStateException(
                  name + ".lua redefines the shared section " + section);
            }
          });
      Set<String> used = new HashSet<>();
      String[][] templates = {{"decide", decide}, {"adjust", adjust}, {"peek", peek}};
      List<Map<Algorithm, Script>> full = List.of(DECIDE, ADJUST, PEEK);
      List<Map<Algorithm, Script>> plain = List.of(DECIDE_PLAIN, ADJUST_PLAIN, PEEK_PLAIN);
      for (int t = 0; t < templates.length; t++) {
        String label = name + "/" + templates[t][0];
        String template = templates[t][1];
        full.get(t)
            .put(
                algorithm,
                script(label, opening + splice(shaped(template, QUOTAS), parts, name, used)));
        plain
            .get(t)
            .put(
                algorithm,
                script(
                    label + "-plain",
                    opening + splice(shaped(template, SINGLE), parts, name, used)));
      }
      if (parts.keySet().containsAll(LEASE_SECTIONS)) {
        LEASE.put(algorithm, script(name + "/lease", opening + splice(lease, parts, name, used)));
        RELEASE.put(
            algorithm, script(name + "/release", opening + splice(release, parts, name, used)));
      }
      if (parts.containsKey(RENEW_SECTION)) {
        RENEW.put(algorithm, script(name + "/renew", opening + splice(renew, parts, name, used)));
      }
      if (!used.containsAll(own.keySet())) {
        Set<String> unused = new HashSet<>(own.keySet());
        unused.removeAll(used);
        throw new IllegalStateException(name + ".lua has sections no template uses: " + unused);
      }
    }
  }

  private Scripts() {}

  /** Publishes a policy's live version, unless a newer one is there: see publish.lua. */
  static Script publish() {
    return PUBLISH;
  }

  /** Reads every policy's live version: see versions.lua. */
  static Script versions() {
    return VERSIONS;
  }

  /** Sets or removes a key's override: see override.lua. */
  static Script override() {
    return OVERRIDE;
  }

  /** Reads the overrides that apply now: see overrides.lua. */
  static Script overrides() {
    return OVERRIDES;
  }

  /** The decide script of {@code algorithm} for a policy that may have calendar quotas. */
  static Script decide(Algorithm algorithm) {
    return DECIDE.get(algorithm);
  }

  /**
   * The decide script of a policy of {@code algorithm}: one that runs the quotas' code only if
   * {@code quotas}.
   */
  static Script decide(Algorithm algorithm, boolean quotas) {
    return quotas ? DECIDE.get(algorithm) : DECIDE_PLAIN.get(algorithm);
  }

  /**
   * {@code template} with the blocks of the given features kept, their {@code --[}/{@code --]}
   * lines dropped, and the blocks of any other feature left out.
   */
  static String shaped(String template, String... features) {
    Set<String> kept = Set.of(features);
    Matcher m = BLOCK_OF.matcher(template);
    StringBuilder out = new StringBuilder(template.length());
    while (m.find()) {
      m.appendReplacement(
          out, Matcher.quoteReplacement(kept.contains(m.group(1)) ? m.group(2) : ""));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The adjust script of {@code algorithm} for a policy that may have calendar quotas. */
  static Script adjust(Algorithm algorithm) {
    return ADJUST.get(algorithm);
  }

  /**
   * The adjust script of a policy of {@code algorithm}, with the quotas' code only if {@code
   * quotas}.
   */
  static Script adjust(Algorithm algorithm, boolean quotas) {
    return quotas ? ADJUST.get(algorithm) : ADJUST_PLAIN.get(algorithm);
  }

  /** Reads a key's state without writing: see peek.lua. */
  static Script peek(Algorithm algorithm) {
    return PEEK.get(algorithm);
  }

  /** {@link #peek(Algorithm)}, with the quotas' code only if {@code quotas}. */
  static Script peek(Algorithm algorithm, boolean quotas) {
    return quotas ? PEEK.get(algorithm) : PEEK_PLAIN.get(algorithm);
  }

  static Script block() {
    return BLOCK;
  }

  /** A global policy's script {@code lua/<name>.lua}: see {@link #REGION}. */
  static Script region(String name) {
    Script script = REGION.get(name);
    if (script == null) {
      throw new IllegalArgumentException("no region script " + name);
    }
    return script;
  }

  /** Whether lease mode is proven for {@code algorithm}: its source has the lease sections. */
  static boolean leases(Algorithm algorithm) {
    return LEASE.containsKey(algorithm);
  }

  /** The lease grant script of {@code algorithm}; only if {@link #leases}. */
  static Script lease(Algorithm algorithm) {
    return LEASE.get(algorithm);
  }

  /** The lease release script of {@code algorithm}; only if {@link #leases}. */
  static Script release(Algorithm algorithm) {
    return RELEASE.get(algorithm);
  }

  /**
   * The script that renews this node's holds on the permits it holds, for an algorithm whose source
   * defines section {@code renew} (concurrency); null for the others.
   */
  static Script renew(Algorithm algorithm) {
    return RENEW.get(algorithm);
  }

  /**
   * The sections of a source, by name, each running from its marker line to the next one. Before
   * the first marker only comments may stand (prelude.lua's opening excepted, which is code).
   */
  static Map<String, String> sections(String name, String source) {
    Map<String, String> sections = new LinkedHashMap<>();
    Matcher m = MARKER.matcher(source);
    String section = null;
    int start = 0;
    while (m.find()) {
      if (section == null && !name.equals("prelude")) {
        requireComments(name, source.substring(0, m.start()));
      }
      if (section != null && sections.put(section, source.substring(start, m.start())) != null) {
        throw new IllegalStateException(name + ".lua defines section " + section + " twice");
      }
      section = m.group(2);
      start = m.end() + 1;
    }
    if (section != null
        && sections.put(section, source.substring(Math.min(start, source.length()))) != null) {
      throw new IllegalStateException(name + ".lua defines section " + section + " twice");
    }
    return sections;
  }

  /**
   * The sections of algorithm {@code name}'s source, each with the shared sections it splices
   * spliced in: the text its scripts run.
   */
  static Map<String, String> expanded(String name) {
    Map<String, String> common = sections("prelude", resource("prelude"));
    Map<String, String> parts = new LinkedHashMap<>(common);
    parts.putAll(sections(name, resource(name)));
    Map<String, String> expanded = new LinkedHashMap<>();
    for (Map.Entry<String, String> section : sections(name, resource(name)).entrySet()) {
      expanded.put(section.getKey(), splice(section.getValue(), parts, name, new HashSet<>(), 1));
    }
    return expanded;
  }

  private static String splice(
      String template, Map<String, String> parts, String name, Set<String> used) {
    return splice(template, parts, name, used, 0);
  }

  /**
   * The template with every marker line replaced by its section, itself spliced; records the
   * sections used.
   */
  private static String splice(
      String template, Map<String, String> parts, String name, Set<String> used, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalStateException(
          name + ".lua: sections splice each other more than " + MAX_DEPTH + " deep");
    }
    Matcher m = SPLICE.matcher(template);
    StringBuilder out = new StringBuilder(template.length() * 2);
    int at = 0;
    while (m.find()) {
      String section = parts.get(m.group(2));
      if (section == null) {
        throw new IllegalStateException(
            name + ".lua has no section " + m.group(2) + ", which a template needs");
      }
      used.add(m.group(2));
      section = splice(section, parts, name, used, depth + 1);
      out.append(template, at, m.start());
      // Indented as the marker, so that the script reads as if written out.
      section
          .strip()
          .lines()
          .forEach(line -> out.append(line.isEmpty() ? "" : m.group(1)).append(line).append('\n'));
      at = Math.min(m.end() + 1, template.length());
    }
    return out.append(template, at, template.length()).toString();
  }

  private static void requireComments(String name, String head) {
    for (String line : head.split("\n")) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("--")) {
        throw new IllegalStateException(name + ".lua has code before its first section: " + l);
      }
    }
  }

  private static Script script(String name, String source) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
      return new Script(name, source, HexFormat.of().formatHex(digest));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-1", e);
    }
  }

  /** The text of {@code lua/<name>.lua}, as stored. */
  static String resource(String name) {
    String path = "lua/" + name + ".lua";
    try (InputStream in = Scripts.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing resource io/github/limiter/redis/" + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read io/github/limiter/redis/" + path, e);
    }
  }
}
