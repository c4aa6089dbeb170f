export default () => new Response("fuzz");
