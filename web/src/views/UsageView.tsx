import { UsageChart } from '../components/UsageChart.js';

/** `/usage`: compute hours per project and profile. */
export function UsageView() {
  return <UsageChart />;
}
