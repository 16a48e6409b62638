import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  LinearScale,
  Tooltip,
} from "chart.js";
import { useEffect, useRef } from "preact/hooks";

// Only what the bar charts use, so the bundle carries nothing else of Chart.js.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);
// No animation: the charts redraw on every re-price, and motion helps nobody read a price.
Chart.defaults.animation = false;
Chart.defaults.font.family = "system-ui, sans-serif";

export type BarConfig = ChartConfiguration<"bar", (number | [number, number])[], string>;

/**
 * A Chart.js bar chart on a canvas, created once and updated in place when `config` changes.
 * The canvas is an image with a text alternative (`label`); the numbers are also in a table
 * beside every chart, for screen readers and for copying.
 */
export function BarChart({ config, label }: { config: BarConfig; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<"bar", (number | [number, number])[], string> | null>(null);
  useEffect(() => {
    if (!canvas.current) return;
    if (!chart.current) {
      chart.current = new Chart(canvas.current, config);
    } else {
      chart.current.data = config.data;
      if (config.options) chart.current.options = config.options;
      chart.current.update();
    }
  }, [config]);
  useEffect(() => () => chart.current?.destroy(), []);
  return <canvas ref={canvas} role="img" aria-label={label} />;
}
