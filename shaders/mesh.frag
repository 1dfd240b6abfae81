#version 330 core
// Hemisphere ambient (sky above, ground below, z up) + one key light + a soft specular highlight.
in vec3 v_normal;
in vec3 v_world;
uniform vec3 u_color;
uniform vec3 u_eye;
uniform vec3 u_lightDir;  // towards the light, normalized
uniform float u_emissive; // 1: unlit colour
out vec4 o_color;
void main()
{
    vec3 n = normalize(v_normal);
    vec3 v = normalize(u_eye - v_world);
    if (dot(n, v) < 0.0) n = -n;  // two-sided
    float hemi = 0.5 + 0.5 * n.z;
    vec3 ambient = mix(vec3(0.22, 0.20, 0.20), vec3(0.42, 0.46, 0.55), hemi);
    float diffuse = max(dot(n, u_lightDir), 0.0);
    vec3 h = normalize(u_lightDir + v);
    float specular = pow(max(dot(n, h), 0.0), 48.0) * 0.35;
    vec3 lit = u_color * (ambient + 0.75 * diffuse) + vec3(specular);
    o_color = vec4(mix(lit, u_color, u_emissive), 1.0);
}
