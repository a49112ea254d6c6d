import type { Plan, ScheduledPower } from '../../model/plan.js';
import { whyText } from '../power-schedules.js';

const plain = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/**
 * One line per scheduled instance for the plan's Schedules section (pure): the state wanted now
 * and why, the next transitions on the schedule's wall clock, and what the schedule saves a month
 * against always on:
 * `ComputeInstance/ml/ws/gpu-1: off now (power schedule office-hours: outside its periods until
 * 2026-11-26T08:00+01:00); next on 2026-11-26T08:00+01:00, off 2026-11-26T20:00+01:00; saves ≈
 * 3,301.71 GPU-h/month (412.71 h off), 40,580.76 USD/month`.
 */
export function scheduleLines(plan: Plan): string[] {
  return (plan.schedules ?? []).map((s) => {
    const next = s.next.map((t) => `${t.state} ${t.local}`).join(', ');
    return `${s.key}: ${s.state} now (${whyText(s)})${next ? `; next ${next}` : ''}; ${saved(s)}`;
  });
}

function saved(s: ScheduledPower): string {
  const hours = `${plain(s.offHoursPerMonth)} h off`;
  const parts = [
    s.gpuHoursSavedPerMonth === undefined
      ? `saves ${hours} a month (GPUs of this profile unknown: add it to the price file)`
      : `saves ≈ ${plain(s.gpuHoursSavedPerMonth)} GPU-h/month (${hours})`,
    ...(s.costSavedPerMonth === undefined
      ? []
      : [`${plain(s.costSavedPerMonth)} ${s.currency ?? ''}/month`]),
  ];
  return parts.join(', ');
}
