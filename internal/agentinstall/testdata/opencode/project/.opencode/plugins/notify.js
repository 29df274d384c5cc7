export const Notify = async () => ({});
