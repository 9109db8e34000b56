package io.github.limiter;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which of the project's packages use which, read from the constant pools of compiled classes:
 * every class, method and field reference, signature and annotation is a UTF-8 constant there.
 */
final class PackageGraph {

  private static final Pattern REFERENCE =
      Pattern.compile("io/github/limiter((?:/[a-z][a-z0-9_]*)*)/[A-Z]");

  /** Package to the other project packages it uses. */
  final Map<String, Set<String>> uses;

  PackageGraph(Map<String, Set<String>> uses) {
    this.uses = uses;
  }

  /** The graph of the classes under {@code classes}, e.g. {@code target/classes}. */
  static PackageGraph of(Path classes) {
    Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(classes)) {
      for (Path file : walk.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name = classes.relativize(file.getParent()).toString().replace('/', '.');
        if (file.getFileName().toString().equals("module-info.class")) {
          continue; // its qualified exports name every internal package, by design
        }
        Set<String> used = uses.computeIfAbsent(name, p -> new TreeSet<>());
        for (String constant : utf8Constants(Files.readAllBytes(file))) {
          Matcher m = REFERENCE.matcher(constant);
          while (m.find()) {
            String target = "io.github.limiter" + m.group(1).replace('/', '.');
            if (!target.equals(name)) {
              used.add(target);
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new PackageGraph(uses);
  }

  /** The strongly connected components of more than one package: each is a cycle (Tarjan). */
  List<Set<String>> cycles() {
    List<Set<String>> cycles = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    for (String p : uses.keySet()) {
      if (!index.containsKey(p)) {
        connect(p, index, low, stack, cycles);
      }
    }
    return cycles;
  }

  private void connect(
      String p,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      List<Set<String>> cycles) {
    index.put(p, index.size());
    low.put(p, index.get(p));
    stack.push(p);
    for (String q : uses.getOrDefault(p, Set.of())) {
      if (!index.containsKey(q)) {
        connect(q, index, low, stack, cycles);
        low.put(p, Math.min(low.get(p), low.get(q)));
      } else if (stack.contains(q)) {
        low.put(p, Math.min(low.get(p), index.get(q)));
      }
    }
    if (low.get(p).equals(index.get(p))) {
      Set<String> component = new TreeSet<>();
      String q;
      do {
        q = stack.pop();
        component.add(q);
      } while (!q.equals(p));
      if (component.size() > 1) {
        cycles.add(component);
      }
    }
  }

  /** The UTF-8 entries of a class file's constant pool. */
  static List<String> utf8Constants(byte[] classFile) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    int count = in.readUnsignedShort();
    List<String> utf8 = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> utf8.add(in.readUTF());
        case 7, 8, 16, 19, 20 -> in.skipBytes(2);
        case 15 -> in.skipBytes(3);
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
        case 5, 6 -> {
          in.skipBytes(8);
          i++; // takes two slots
        }
        default -> throw new IOException("constant pool tag " + tag);
      }
    }
    return utf8;
  }
}
