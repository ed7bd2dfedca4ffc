package org.ibtwin.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML document read into a small tree that remembers the line of every key and value, which Jackson's
 * {@code JsonNode} forgets. Built from the token stream of Jackson's YAML parser.
 */
final class YamlTree {

    /** A node of the tree; {@code line} is 1-based. */
    sealed interface YNode permits YMap, YList, YScalar {
        int line();

        /** How the node reads in a message: {@code "text"}, {@code 12}, {@code a list}. */
        String describe();
    }

    /** A mapping entry with the line of its key. */
    record YEntry(String key, int line, YNode value) {
    }

    record YMap(int line, List<YEntry> entries) implements YNode {
        @Override
        public String describe() {
            return "a mapping";
        }
    }

    record YList(int line, List<YNode> items) implements YNode {
        @Override
        public String describe() {
            return "a list";
        }
    }

    /** A scalar: its token (string, number, boolean or null), its text, and its number if it is one. */
    record YScalar(int line, JsonToken token, String text, Number number) implements YNode {
        boolean isNull() {
            return token == JsonToken.VALUE_NULL;
        }

        boolean isString() {
            return token == JsonToken.VALUE_STRING;
        }

        @Override
        public String describe() {
            return switch (token) {
                case VALUE_STRING -> "\"" + abbreviate(text) + "\"";
                case VALUE_NULL -> "nothing";
                case VALUE_TRUE -> "true";
                case VALUE_FALSE -> "false";
                default -> abbreviate(text);
            };
        }
    }

    private static final YAMLFactory FACTORY = YAMLFactory.builder().build();

    /**
     * The most code points a document may have: SnakeYAML's own limit (LoaderOptions' code point limit, 3 MiB),
     * checked here before parsing, since SnakeYAML finds it out only after seconds and a gigabyte of work.
     */
    static final int MAX_CODE_POINTS = 3 * 1024 * 1024;
    /**
     * The longest line a document may have. No key or value of a fabric description comes near it, and SnakeYAML
     * takes seconds a megabyte over one long scalar: a longer line is refused before it parses.
     */
    static final int MAX_LINE = 65_536;

    private YamlTree() {
    }

    /**
     * Parses one YAML document.
     *
     * @return the root, or null for an empty document
     * @throws FormatException for malformed YAML, aliases, or more than one document
     */
    static YNode parse(String text, String file) {
        if (text.length() > MAX_CODE_POINTS && text.codePointCount(0, text.length()) > MAX_CODE_POINTS) {
            throw tooLarge(file);
        }
        int lineNo = 1;
        for (int start = 0; start < text.length(); lineNo++) {
            int end = text.indexOf('\n', start);
            if (end < 0) {
                end = text.length();
            }
            if (end - start > MAX_LINE) {
                throw new FormatException(file, lineNo, String.format(java.util.Locale.ROOT,
                        "line longer than %,d characters (%,d)", MAX_LINE, end - start));
            }
            start = end + 1;
        }
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() == null) {
                return null;
            }
            YNode root = read(p, file);
            if (p.nextToken() != null) {
                throw new FormatException(file, line(p), "more than one YAML document (remove the \"---\")");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw malformed(e, file);
        } catch (IOException e) {
            throw new FormatException(file, 0, "cannot read: " + e.getMessage(), e);
        }
    }

    /** A value as messages quote it: at most 40 characters. */
    static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }

    /** "lab.yaml: larger than the 3 MiB a YAML document may have". */
    static FormatException tooLarge(String file) {
        return new FormatException(file, 0, "larger than the " + MAX_CODE_POINTS / (1024 * 1024)
                + " MiB (" + String.format(java.util.Locale.ROOT, "%,d", MAX_CODE_POINTS)
                + " characters) a YAML document may have");
    }

    private static YNode read(JsonParser p, String file) throws IOException {
        int line = line(p);
        JsonToken t = p.currentToken();
        if (p instanceof YAMLParser yp && yp.isCurrentAlias()) {
            throw new FormatException(file, line, "YAML aliases (\"*" + p.getText() + "\") are not supported");
        }
        switch (t) {
            case START_OBJECT -> {
                List<YEntry> entries = new ArrayList<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    int keyLine = line(p);
                    p.nextToken();
                    entries.add(new YEntry(key, keyLine, read(p, file)));
                }
                return new YMap(line, List.copyOf(entries));
            }
            case START_ARRAY -> {
                List<YNode> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(read(p, file));
                }
                return new YList(line, List.copyOf(items));
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                return new YScalar(line, t, p.getText(), p.getNumberValue());
            }
            case VALUE_STRING, VALUE_TRUE, VALUE_FALSE, VALUE_NULL -> {
                return new YScalar(line, t, p.getText(), null);
            }
            default -> throw new FormatException(file, line, "unsupported YAML value " + describe(t));
        }
    }

    private static String describe(JsonToken t) {
        return t.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static int line(JsonParser p) {
        return p.currentTokenLocation().getLineNr();
    }

    private static FormatException malformed(JsonProcessingException e, String file) {
        if (e.getCause() instanceof MarkedYAMLException m && m.getProblemMark() != null) {
            String problem = m.getProblem() == null ? "" : m.getProblem();
            String context = m.getContext() == null ? "" : " (" + m.getContext() + ")";
            return new FormatException(file, m.getProblemMark().getLine() + 1,
                    "not valid YAML: " + problem + context, e);
        }
        int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        String msg = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().lines().findFirst().orElse("");
        return new FormatException(file, line, "not valid YAML: " + msg, e);
    }
}
