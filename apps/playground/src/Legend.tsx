import { BUCKETS, LAYER_INFO, REASON_COLOR, type Scale } from './heatmap';
import type { Layer } from './urlState';

/** The colour scale of the active layer and the gutter colours for why a line was kept. */
export function Legend({ layer, scale }: { layer: Layer; scale: Scale | null }) {
  const info = layer === 'off' ? null : LAYER_INFO[layer];
  return (
    <div className="legend" data-testid="legend" aria-label="Legend">
      {info ? (
        <div
          className="scale"
          title={`${info.description} ${scale?.relative ? `Colours span this file's range, ${scale.min.toFixed(2)}–${scale.max.toFixed(2)}.` : 'Colours on the fixed 0–1 scale (the values barely vary in this file).'}`}
          data-testid="legend-scale"
          data-scale={scale ? `${scale.relative ? 'file' : 'fixed'} ${scale.min} ${scale.max}` : ''}
        >
          <span className="end">
            {info.low}
            {scale && <b className="num"> {scale.min.toFixed(2)}</b>}
          </span>
          <span className="bar" aria-hidden="true">
            {Array.from({ length: BUCKETS }, (_, b) => (
              <i key={b} style={{ background: info.colorAt((b + 0.5) / BUCKETS) }} />
            ))}
          </span>
          <span className="end">
            {scale && <b className="num">{scale.max.toFixed(2)} </b>}
            {info.high}
            {scale && <small className="scale-kind">{scale.relative ? ' (this file’s range)' : ' (fixed 0–1)'}</small>}
          </span>
          <span className="sr-only">{info.description}</span>
        </div>
      ) : (
        <div className="scale">
          <i className="swatch" style={{ background: '#f8514966' }} aria-hidden="true" /> pruned
          <i className="swatch" style={{ background: '#2ea04366' }} aria-hidden="true" /> elision marker
        </div>
      )}
      <div className="reasons">
        {(['evidence', 'dependency', 'repair'] as const).map((r) => (
          <span key={r}>
            <i className="swatch bar" style={{ background: REASON_COLOR[r] }} aria-hidden="true" />
            {r}
          </span>
        ))}
      </div>
    </div>
  );
}
