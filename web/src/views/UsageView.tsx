import { UsageView as Usage } from '../components/usage/UsageView.js';

/** `/usage`: usage and cost over a date range, and the fleet of instances. */
export function UsageView() {
  return <Usage />;
}
