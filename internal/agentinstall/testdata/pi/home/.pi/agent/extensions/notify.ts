export default function (pi) {
  pi.on("agent_end", async () => {});
}
