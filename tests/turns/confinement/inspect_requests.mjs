// Run in the guest by test_inspected_hosts.py: each argument triple
// "STEP METHOD URL" is one HTTPS request through the turn's proxy
// (CONNECT, then TLS verified with this Node's trust, never disabled),
// printed as "INSPECT STEP http-<status> reason=<X-Arizuko-Egress-Reason>
// body=<the body's first line>" or "INSPECT STEP error <code>". With
// INSPECT_AUTHORIZATION set (test_bound_secrets.py), each request carries it
// as its Authorization header.
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';

const proxy = new URL(process.env.https_proxy);

function request(method, url) {
    return new Promise((resolve) => {
        const target = new URL(url);
        const port = target.port || '443';
        const connect = http.request({
            host: proxy.hostname, port: proxy.port, method: 'CONNECT',
            path: `${target.hostname}:${port}`, headers: {host: `${target.hostname}:${port}`},
        });
        connect.on('error', (error) => resolve(`error connect-${error.code || error.message}`));
        connect.setTimeout(60000, () => connect.destroy(new Error('timeout')));
        connect.on('connect', (response, socket) => {
            if (response.statusCode !== 200) {
                socket.destroy();
                resolve(`error connect-${response.statusCode}`);
                return;
            }
            const secured = tls.connect({socket, servername: target.hostname,
                                         ALPNProtocols: ['http/1.1']});
            // No agent: the request goes over `secured` alone (an agent would
            // dial, and look the name up, itself).
            const exchange = https.request({
                host: target.hostname, port, method, path: target.pathname,
                createConnection: () => secured,
                headers: process.env.INSPECT_AUTHORIZATION
                    ? {authorization: process.env.INSPECT_AUTHORIZATION} : {},
            }, (answer) => {
                let body = '';
                answer.setEncoding('utf8');
                answer.on('data', (piece) => { body += piece; });
                answer.on('end', () => resolve(
                    `http-${answer.statusCode} ` +
                    `reason=${answer.headers['x-arizuko-egress-reason'] || 'none'} ` +
                    `body=${body.split('\n')[0]}`));
            });
            exchange.on('error', (error) => resolve(`error ${error.code || error.message}`));
            exchange.setTimeout(60000, () => exchange.destroy(new Error('timeout')));
            exchange.end(method === 'POST' ? 'data' : undefined);
        });
        connect.end();
    });
}

const steps = process.argv.slice(2);
for (let i = 0; i + 2 < steps.length; i += 3)
    console.log(`INSPECT ${steps[i]} ${await request(steps[i + 1], steps[i + 2])}`);
// The kept-alive tunnels would hold the process open.
process.exit(0);
