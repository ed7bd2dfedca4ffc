package org.ibtwin.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A line chart of a figure against message size, the x axis in powers of two: SVG written by hand, or PNG drawn
 * with java.awt (headless). One drawing routine serves both through {@link Canvas}.
 */
final class Plot {
    static final int WIDTH = 900;
    static final int HEIGHT = 540;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int TOP = 50;
    private static final int BOTTOM = 70;
    private static final String LINE = "#1f77b4";

    private Plot() {
    }

    /** What the chart is drawn on. Coordinates in pixels, y down. */
    interface Canvas {
        void line(double x1, double y1, double x2, double y2, String colour, double width);

        void polyline(double[] xs, double[] ys, String colour, double width);

        void dot(double x, double y, double r, String colour);

        /** Text anchored at its middle ("middle"), start or end; rotated -90 degrees when {@code vertical}. */
        void text(double x, double y, String s, int size, String anchor, boolean vertical, boolean bold);
    }

    /**
     * Writes the chart to {@code file}: PNG when it ends in .png, SVG otherwise. The y axis is linear from 0, or in
     * decades when {@code logY} (latencies span 1 us to hundreds). The file's directory must exist.
     */
    static void write(Path file, String title, String xLabel, String yLabel, List<double[]> points, boolean logY)
            throws IOException {
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
            System.setProperty("java.awt.headless", "true");
            BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = img.createGraphics();
            try {
                g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
                g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
                g.setColor(Color.WHITE);
                g.fillRect(0, 0, WIDTH, HEIGHT);
                draw(new AwtCanvas(g), title, xLabel, yLabel, points, logY);
            } finally {
                g.dispose();
            }
            try (OutputStream o = Files.newOutputStream(file)) {   // the file's own error, not ImageIO's
                if (!ImageIO.write(img, "png", o)) {
                    throw new IOException("no PNG writer");
                }
            }
        } else {
            Files.writeString(file, svg(title, xLabel, yLabel, points, logY), StandardCharsets.UTF_8);
        }
    }

    /** The chart as an SVG document. */
    static String svg(String title, String xLabel, String yLabel, List<double[]> points, boolean logY) {
        SvgCanvas c = new SvgCanvas();
        draw(c, title, xLabel, yLabel, points, logY);
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + WIDTH + "\" height=\"" + HEIGHT
                + "\" viewBox=\"0 0 " + WIDTH + " " + HEIGHT + "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
                + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + c.body + "</svg>\n";
    }

    static void draw(Canvas c, String title, String xLabel, String yLabel, List<double[]> points, boolean logY) {
        double x0 = LEFT;
        double x1 = WIDTH - RIGHT;
        double y0 = HEIGHT - BOTTOM;
        double y1 = TOP;
        double minExp = Double.POSITIVE_INFINITY;
        double maxExp = Double.NEGATIVE_INFINITY;
        double maxY = 0;
        double minY = Double.POSITIVE_INFINITY;
        for (double[] p : points) {
            double e = Math.log(p[0]) / Math.log(2);
            minExp = Math.min(minExp, Math.floor(e));
            maxExp = Math.max(maxExp, Math.ceil(e));
            maxY = Math.max(maxY, p[1]);
            if (p[1] > 0) {
                minY = Math.min(minY, p[1]);
            }
        }
        if (points.isEmpty()) {
            minExp = 1;
            maxExp = 23;
        }
        if (maxExp <= minExp) {
            maxExp = minExp + 1;
        }
        double step = niceStep(maxY <= 0 ? 1 : maxY * 1.08 / 5);
        double top = Math.max(step, Math.ceil(maxY * 1.08 / step) * step);
        final double lo = minExp;
        final double hi = maxExp;
        java.util.function.DoubleUnaryOperator sx = e -> x0 + (e - lo) / (hi - lo) * (x1 - x0);
        java.util.function.DoubleUnaryOperator sy;
        if (logY) {
            double d0 = Math.floor(Math.log10(Double.isInfinite(minY) ? 1 : minY));
            double d1 = Math.max(d0 + 1, Math.ceil(Math.log10(Math.max(maxY, 1e-12))));
            sy = v -> y0 - (Math.log10(Math.max(v, 1e-12)) - d0) / (d1 - d0) * (y0 - y1);
            for (int d = (int) d0; d <= (int) d1; d++) {
                for (int m = 1; m < 10 && (m == 1 || d < d1); m++) {
                    double y = sy.applyAsDouble(m * Math.pow(10, d));
                    c.line(x0, y, x1, y, m == 1 ? "#cccccc" : "#eeeeee", 1);
                }
                double y = sy.applyAsDouble(Math.pow(10, d));
                c.text(x0 - 8, y + 4, d < 0 ? String.format(Locale.ROOT, "%." + (-d) + "f", Math.pow(10, d))
                        : String.format(Locale.ROOT, "%.0f", Math.pow(10, d)), 12, "end", false, false);
            }
        } else {
            sy = v -> y0 - v / top * (y0 - y1);
            for (double v = 0; v <= top + step / 2; v += step) {
                double y = sy.applyAsDouble(v);
                c.line(x0, y, x1, y, "#dddddd", 1);
                c.text(x0 - 8, y + 4, number(v, step), 12, "end", false, false);
            }
        }
        // x ticks: every power of two, labelled every other one
        for (int e = (int) lo; e <= (int) hi; e++) {
            double x = sx.applyAsDouble(e);
            c.line(x, y0, x, y0 + 5, "#333333", 1);
            if ((e - (int) lo) % 2 == 0 || hi - lo <= 12) {
                c.text(x, y0 + 20, sizeLabel(e), 12, "middle", false, false);
            }
        }
        c.line(x0, y0, x1, y0, "#333333", 1.5);
        c.line(x0, y0, x0, y1, "#333333", 1.5);
        double[] xs = new double[points.size()];
        double[] ys = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            xs[i] = sx.applyAsDouble(Math.log(points.get(i)[0]) / Math.log(2));
            ys[i] = sy.applyAsDouble(points.get(i)[1]);
        }
        if (points.size() > 1) {
            c.polyline(xs, ys, LINE, 2.5);
        }
        for (int i = 0; i < xs.length; i++) {
            c.dot(xs[i], ys[i], 3.5, LINE);
        }
        c.text(WIDTH / 2.0, 28, title, 16, "middle", false, true);
        c.text((x0 + x1) / 2, HEIGHT - 22, xLabel + " (log2 scale)", 13, "middle", false, false);
        c.text(24, (y0 + y1) / 2, yLabel + (logY ? " (log scale)" : ""), 13, "middle", true, false);
    }

    /** 2, 4, ... 512, 1K, ... 512K, 1M, ... */
    static String sizeLabel(int exp) {
        if (exp >= 20) {
            return (1L << (exp - 20)) + "M";
        }
        if (exp >= 10) {
            return (1L << (exp - 10)) + "K";
        }
        return Long.toString(1L << Math.max(0, exp));
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * mag >= raw) {
                return m * mag;
            }
        }
        return 10 * mag;
    }

    private static String number(double v, double step) {
        if (step >= 1) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        int digits = (int) Math.ceil(-Math.log10(step));
        return String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    private static final class SvgCanvas implements Canvas {
        final StringBuilder body = new StringBuilder();

        @Override
        public void line(double x1, double y1, double x2, double y2, String colour, double width) {
            body.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
                    x1, y1, x2, y2, colour, width));
        }

        @Override
        public void polyline(double[] xs, double[] ys, String colour, double width) {
            body.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"")
                    .append(width).append("\" points=\"");
            for (int i = 0; i < xs.length; i++) {
                body.append(String.format(Locale.ROOT, "%s%.1f,%.1f", i == 0 ? "" : " ", xs[i], ys[i]));
            }
            body.append("\"/>\n");
        }

        @Override
        public void dot(double x, double y, double r, String colour) {
            body.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
                    x, y, r, colour));
        }

        @Override
        public void text(double x, double y, String s, int size, String anchor, boolean vertical, boolean bold) {
            body.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\"",
                    x, y, size, anchor));
            if (bold) {
                body.append(" font-weight=\"bold\"");
            }
            if (vertical) {
                body.append(String.format(Locale.ROOT, " transform=\"rotate(-90 %.1f %.1f)\"", x, y));
            }
            body.append('>').append(escape(s)).append("</text>\n");
        }

        private static String escape(String s) {
            return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        }
    }

    private static final class AwtCanvas implements Canvas {
        private final Graphics2D g;

        AwtCanvas(Graphics2D g) {
            this.g = g;
        }

        private static Color colour(String hex) {
            return Color.decode(hex);
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String colour, double width) {
            g.setColor(colour(colour));
            g.setStroke(new BasicStroke((float) width));
            g.draw(new Line2D.Double(x1, y1, x2, y2));
        }

        @Override
        public void polyline(double[] xs, double[] ys, String colour, double width) {
            Path2D.Double p = new Path2D.Double();
            p.moveTo(xs[0], ys[0]);
            for (int i = 1; i < xs.length; i++) {
                p.lineTo(xs[i], ys[i]);
            }
            g.setColor(colour(colour));
            g.setStroke(new BasicStroke((float) width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
            g.draw(p);
        }

        @Override
        public void dot(double x, double y, double r, String colour) {
            g.setColor(colour(colour));
            g.fill(new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r));
        }

        @Override
        public void text(double x, double y, String s, int size, String anchor, boolean vertical, boolean bold) {
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, size));
            FontMetrics fm = g.getFontMetrics();
            int w = fm.stringWidth(s);
            double dx = switch (anchor) {
                case "middle" -> -w / 2.0;
                case "end" -> -w;
                default -> 0;
            };
            AffineTransform saved = g.getTransform();
            g.translate(x, y);
            if (vertical) {
                g.rotate(-Math.PI / 2);
            }
            g.drawString(s, (float) dx, 0f);
            g.setTransform(saved);
        }
    }
}
