// Snap values of the parameter panel (p2l_parameter_snaps): a value within a small distance
// of one of the parameter's snap values becomes that value, as a panel slider "clicks" into
// the poses the rig was designed around.

const SNAP_DISTANCE = 0.03;  // of the parameter's range

/** [value] moved onto the nearest of [parameter].snaps when close enough. */
export function snapValue(parameter, value) {
  const snaps = parameter.snaps;
  if (!snaps || snaps.length === 0) return value;
  const reach = (parameter.max - parameter.min) * SNAP_DISTANCE;
  let best = value, distance = reach;
  for (const s of snaps) {
    const d = Math.abs(s - value);
    if (d <= distance) {
      best = s;
      distance = d;
    }
  }
  return best;
}
