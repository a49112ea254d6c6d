import type { UsageItem } from '../api/usage.js';

/** One bar of the usage chart: a project's hours per compute profile, and its GPU-hours. */
export interface ProjectUsage {
  readonly project: string;
  readonly gpuHours: number;
  readonly total: number;
  /** Hours per profile name. */
  readonly [profile: string]: number | string;
}

/**
 * Sums usage lines per project (pure): hours per profile (a bar stacked by profile), total
 * hours and GPU-hours, projects by most hours first. Also returns the profiles seen, sorted.
 */
export function usageByProject(items: readonly UsageItem[]): {
  rows: ProjectUsage[];
  profiles: string[];
} {
  const byProject = new Map<string, Record<string, number>>();
  const profiles = new Set<string>();
  for (const item of items) {
    const row = byProject.get(item.project) ?? { total: 0, gpuHours: 0 };
    row[item.profile] = round2((row[item.profile] ?? 0) + item.hours);
    row.total = round2((row.total ?? 0) + item.hours);
    row.gpuHours = round2((row.gpuHours ?? 0) + (item.gpuHours ?? 0));
    byProject.set(item.project, row);
    profiles.add(item.profile);
  }
  const rows = [...byProject.entries()]
    .map(([project, r]) => ({ project, ...r }) as ProjectUsage)
    .sort((a, b) => b.total - a.total || a.project.localeCompare(b.project));
  return { rows, profiles: [...profiles].sort() };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
